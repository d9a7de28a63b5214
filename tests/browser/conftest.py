"""Browser tests: the shared ``browser`` and ``page`` fixtures live in tests/conftest.py."""
