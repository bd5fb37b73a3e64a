"""Worked examples of cardgen as a library (see docs/scale.md); the tests run them."""
