#!/usr/bin/python3
# Reads a feed kfeed wrote with a real feed parser and prints what the parser understood, as JSON, for
# FeedDocumentTests to compare with the timeline: RSS 2.0 with Debian's python3-feedparser, JSON Feed 1.1 with
# jsonfeed-util (PyPI; scripts/deps.sh installs both). Exits 1 with one line when the parser refuses the feed.
#
# Usage: /usr/bin/python3 Fixtures/tools/read-feed.py rss|json FILE
import calendar
import datetime
import html
import json
import sys


def rss(data):
    import feedparser

    feed = feedparser.parse(data)
    if feed.bozo:
        sys.exit("feedparser: %s" % feed.bozo_exception)
    items = []
    for entry in feed.entries:
        enclosures = [link for link in entry.get("links", []) if link.get("rel") == "enclosure"]
        content = entry.get("content") or [{}]
        items.append(
            {
                "id": entry.get("id"),
                "link": entry.get("link"),
                "title": entry.get("title"),
                "published": calendar.timegm(entry.published_parsed) if entry.get("published_parsed") else None,
                # The description is HTML: the text a reader shows is its unescaped form.
                "text": html.unescape(entry.get("summary", "")),
                "author": entry.get("author_detail", {}).get("name"),
                "author_url": entry.get("author_detail", {}).get("href"),
                "image": (entry.get("media_content") or [{}])[0].get("url"),
                "width": (entry.get("media_content") or [{}])[0].get("width"),
                "thumbnail": (entry.get("media_thumbnail") or [{}])[0].get("url"),
                "alt": content[0].get("value"),
                "credit": (entry.get("media_credit") or [{}])[0].get("content"),
                "enclosure": enclosures[0].get("href") if enclosures else None,
                "enclosure_length": int(enclosures[0].get("length")) if enclosures else None,
            }
        )
    return {"version": feed.version, "title": feed.feed.get("title"), "items": items}


def jsonfeed(data):
    import jsonfeed

    raw = json.loads(data)
    feed = jsonfeed.Feed.parse(raw)
    items = []
    for item, original in zip(feed.items, raw.get("items", [])):
        author = (item.authors or [None])[0]
        attachment = (item.attachments or [None])[0]
        items.append(
            {
                "id": item.id,
                "link": item.url,
                "published": int(datetime.datetime.fromisoformat(item.date_published).timestamp()),
                "text": item.content_text,
                "author": author.name if author else None,
                "author_url": author.url if author else None,
                "avatar": author.avatar if author else None,
                "image": item.image,
                "alt": attachment.title if attachment else None,
                "enclosure": attachment.url if attachment else None,
                # jsonfeed-util 1.2.0 keeps size_in_bytes in a one-element tuple.
                "enclosure_length": size(attachment.size_in_bytes) if attachment else None,
                "username": original.get("_kfeed", {}).get("username"),
            }
        )
    return {"version": raw.get("version"), "title": feed.title, "items": items}


def size(value):
    return value[0] if isinstance(value, tuple) else value


def main():
    kind, path = sys.argv[1], sys.argv[2]
    with open(path, "rb") as handle:
        data = handle.read()
    print(json.dumps(rss(data) if kind == "rss" else jsonfeed(data), ensure_ascii=True))


main()
