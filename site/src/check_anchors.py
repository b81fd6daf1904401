"""Fails when a link of the built site points at an anchor its target page does not have.

MkDocs 1.4 (Debian 12's) checks that a linked page exists, not that the heading a link names does; this reads every
page MkDocs wrote and checks each internal link with a fragment against the ids of its target.

    python3 site/src/check_anchors.py site/target/site
"""
import html.parser
import os
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "a" and values.get("href"):
            self.links.append(values["href"])


def main(root):
    pages = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                page = Page()
                with open(path, encoding="utf-8") as text:
                    page.feed(text.read())
                pages[os.path.normpath(path)] = page
    broken = []
    for path, page in sorted(pages.items()):
        for href in page.links:
            url = urllib.parse.urlsplit(href)
            if url.scheme or url.netloc or not url.fragment:
                continue
            target = path if not url.path else os.path.normpath(os.path.join(os.path.dirname(path), url.path))
            if os.path.isdir(target):
                target = os.path.join(target, "index.html")
            if target not in pages:
                continue  # a file that is not a page (an image): MkDocs checked it exists
            if urllib.parse.unquote(url.fragment) not in pages[target].ids:
                broken.append(f"{os.path.relpath(path, root)}: {href} (no such heading in {os.path.relpath(target, root)})")
    for line in broken:
        print("broken anchor: " + line)
    print(f"{len(pages)} pages, {sum(len(p.links) for p in pages.values())} links checked, {len(broken)} broken anchors")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
