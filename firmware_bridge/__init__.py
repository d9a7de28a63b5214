"""The dice tray: serial protocol, a link that survives unplugging, emulator, firmware, Pi GPIO."""
