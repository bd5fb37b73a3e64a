"""Renderers: translate a page description into PDF, SVG or PNG. No layout happens here."""
