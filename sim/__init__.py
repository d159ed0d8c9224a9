"""The virtual board: headless for tests, a pygame window for people."""
