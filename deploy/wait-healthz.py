"""Wait until the companion answers URL (its /healthz), at most SECONDS; exit 0 when it does.

Used by the kiosk unit so chromium opens on the table page, not on an error page.
Standard library only: it runs before anything else is known to work.
"""

import sys
import time
import urllib.request


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else "http://localhost:8080/healthz"
    limit = float(argv[2]) if len(argv) > 2 else 60.0
    deadline = time.monotonic() + limit
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    return 0
        except OSError:
            pass
        if time.monotonic() > deadline:
            print(f"{url} did not answer within {limit:.0f} s", file=sys.stderr)
            return 1
        time.sleep(1)  # polling a server in another process: nothing to wait on but time


if __name__ == "__main__":
    sys.exit(main(sys.argv))
