"""The console's HTML: one small shell per view; the browser fills it from the JSON API.

No inline script or style (the Content-Security-Policy forbids them): the page names its view
and arguments in data attributes, and /static/console.js renders it.
"""

from __future__ import annotations

import html

NAV = (
    ("/", "Table"),
    ("/games", "Games"),
    ("/stats", "Statistics"),
    ("/referee", "Referee"),
    ("/setup", "Setup"),
)


def shell(title: str, view: str, live: bool, **data: object) -> str:
    attrs = " ".join(f'data-{k}="{html.escape(str(v), quote=True)}"' for k, v in data.items())
    links = [(href, text) for href, text in NAV if live or href not in ("/", "/referee")]
    nav = "".join(f'<a href="{href}">{text}</a>' for href, text in links)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · sticktable</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/console.css">
<link rel="stylesheet" href="/static/vendor/uPlot.min.css">
<script defer src="/static/vendor/uPlot.iife.min.js"></script>
<script defer src="/static/console.js"></script>
</head>
<body>
<header><strong>sticktable</strong><nav>{nav}</nav></header>
<main id="app" data-view="{view}" {attrs}><p class="loading">loading…</p></main>
</body>
</html>
"""
