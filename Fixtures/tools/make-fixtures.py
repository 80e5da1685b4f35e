#!/usr/bin/env python3
"""Writes kfeed's recorded-shape fixtures (Fixtures/*.json and Fixtures/replay/*/routes.json).

Every post, user and image here is invented: no real person's posts. The JSON has the exact shape of
X API v2 recent-search responses (`GET /2/tweets/search/recent`). Run from anywhere; output is deterministic.
"""
import json
import os
import random

SAMPLE_PICTURES = 48  # stage-N.jpg: one per photo of the sample
HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.dirname(HERE)

USERS = [
    ("1500000000000000001", "Seoul Lens 📸", "seoul_lens"),
    ("1500000000000000002", "Hallyu Daily", "hallyu_daily"),
    ("1500000000000000003", "무대 사진관", "stage_photo_kr"),
    ("1500000000000000004", "Comeback Watch", "comeback_watch"),
    ("1500000000000000005", "Photocard Club ✨", "photocard_club"),
    ("1500000000000000006", "Dance Practice Archive", "dance_practice"),
    ("1500000000000000007", "MV Stills", "mv_stills"),
    ("1500000000000000008", "콘서트 일기", "concert_diary"),
    ("1500000000000000009", "Idol Moments", "idol_moments"),
    ("1500000000000000010", "Light Stick Ocean 🌊", "lightstick_sea"),
    ("1500000000000000011", "Fan Sign Notes", "fansign_notes"),
    ("1500000000000000012", "Backstage Frames", "backstage_frm"),
]
TEXTS = [
    "오늘 무대 너무 좋았어요 💜 #KPOP",
    "Comeback stage photos are up! 🎤✨",
    "첫 콘서트 현장 사진 📸 다들 고마워요",
    "Fan meeting highlights 💖🫶",
    "Music show win! 🏆 축하해요",
    "Airport fashion today ✈️",
    "새 앨범 티저 이미지 공개 🔥",
    "Stage outfit details 👗",
    "Rehearsal behind the scenes 🎬",
    "응원봉 바다 🌊💙",
    "Photocard unboxing 🃏",
    "Dance practice stills 💃🕺",
]


def avatar(uid):
    return f"https://pbs.twimg.com/profile_images/{uid[-4:]}00000000000{uid[-2:]}/av{uid[-2:]}_normal.jpg"


def user(i):
    uid, name, username = USERS[i]
    return {"id": uid, "name": name, "username": username, "profile_image_url": avatar(uid)}


def tid(n):
    return f"18591700000000{n:05d}"


def photo(n, w=1200, h=1500, alt=None):
    m = {"media_key": f"3_18591700000001{n:05d}", "type": "photo",
         "url": f"https://pbs.twimg.com/media/GkP{n:05d}aXoAAqzR.jpg", "width": w, "height": h}
    if alt:
        m["alt_text"] = alt
    return m


def video(n, gif=False):
    prefix, kind, thumb = ("16_", "animated_gif", "tweet_video_thumb") if gif else ("7_", "video", "ext_tw_video_thumb")
    return {"media_key": f"{prefix}18591700000002{n:05d}", "type": kind,
            "preview_image_url": f"https://pbs.twimg.com/{thumb}/18591700000002{n:05d}/pu/img/Vt{n:05d}.jpg",
            "width": 1280, "height": 720}


def post(n, author, keys, minute, text=None, sensitive=False, lang="ko"):
    p = {"id": tid(n), "text": text if text is not None else TEXTS[n % len(TEXTS)],
         "author_id": USERS[author][0], "created_at": f"2026-11-22T{8 - minute // 60:02d}:{59 - minute % 60:02d}:00.000Z",
         "possibly_sensitive": sensitive, "lang": lang, "edit_history_tweet_ids": [tid(n)]}
    if keys is not None:
        p["attachments"] = {"media_keys": keys}
    return p


def write(name, obj):
    with open(os.path.join(FIX, name), "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2)
        f.write("\n")


def page(posts, media, users, meta, tweets=None, **extra):
    body = {"data": posts, "includes": {"media": media, "users": users}, "meta": meta}
    if tweets:
        body["includes"]["tweets"] = tweets
    body.update(extra)
    return body


# --- The sample: two pages, 36 posts, most usable, with every kind of unusable post in between. -----------
def sample():
    pages = []
    n = 1
    minute = 0
    for page_no, count in ((1, 24), (2, 18)):
        posts, media, seen_users = [], [], set()
        for i in range(count):
            author = (n * 7) % len(USERS)
            keys = []
            kind = n % 11
            if kind == 3:  # video: unusable without --video-previews
                v = video(n); media.append(v); keys = [v["media_key"]]
            elif kind == 5:  # multi-photo: first photo is used
                for j in range(3):
                    ph = photo(n * 10 + j, 1080, 1350, alt=f"Photo {j + 1} of 3 from the stage"); media.append(ph)
                    keys.append(ph["media_key"])
            elif kind == 7 and page_no == 1:  # GIF
                g = video(n, gif=True); media.append(g); keys = [g["media_key"]]
            elif kind == 9:  # shares the media of the previous photo post (a quote repost of the same image)
                keys = [media[-1]["media_key"]] if media else []
            else:
                ph = photo(n, 1200 + (n % 4) * 200, 1500 - (n % 3) * 300,
                           alt="Singer on stage under purple lights" if n % 4 == 0 else None)
                media.append(ph); keys = [ph["media_key"]]
            sensitive = (n == 13)
            posts.append(post(n, author, keys, minute, sensitive=sensitive))
            seen_users.add(author)
            n += 1
            minute += 4
        users = [user(a) for a in sorted(seen_users)]
        meta = {"newest_id": posts[0]["id"], "oldest_id": posts[-1]["id"], "result_count": len(posts)}
        if page_no == 1:
            meta["next_token"] = "b26v89c19zqg8o3fpe17ld5o1i6z6ze5ivkw1nk1wu0ot"
        pages.append(page(posts, media, users, meta))
    write("recent-search.sample-page1.json", pages[0])
    write("recent-search.sample-page2.json", pages[1])


# --- One scenario per file. ----------------------------------------------------------------------------------
def scenarios():
    # A K-pop page: photos, a video, a GIF, a multi-photo post, a retweet sharing media, a sensitive post,
    # Hangul and emoji text, an included tweet whose media is absent from includes.media.
    p1, p2, p3, p4 = photo(101), photo(102), photo(103), photo(104)
    multi = [photo(110, alt="앨범 재킷 앞면"), photo(111), photo(112), photo(113)]
    v, g = video(120), video(121, gif=True)
    posts = [
        post(101, 0, [p1["media_key"]], 0, text="오늘 무대 너무 좋았어요 💜🫶 #KPOP"),
        post(102, 1, [v["media_key"]], 3, text="Full fancam 🎥"),
        post(103, 2, [m["media_key"] for m in multi], 6, text="Album photos 1-4 📀 앨범 사진"),
        post(104, 3, [g["media_key"]], 9, text="this reaction 😂"),
        post(105, 4, [p1["media_key"]], 12, text="RT-style share of the same stage photo 💜"),
        post(106, 5, [p2["media_key"]], 15, text="🔞 backstage", sensitive=True),
        post(107, 6, [p3["media_key"]], 18, text="👨‍👩‍👧 family concert day 🇰🇷"),
        post(108, 7, [p4["media_key"]], 21, text="مرحبا from the Riyadh show 🎶"),
    ]
    included = [{"id": tid(99), "text": "original post", "author_id": USERS[9][0],
                 "attachments": {"media_keys": ["3_1859170000000199999"]}}]  # its media is not in includes.media
    write("recent-search.kpop.json", page(
        posts, [p1, v] + multi + [g, p2, p3, p4], [user(i) for i in range(8)],
        {"newest_id": tid(101), "oldest_id": tid(108), "result_count": 8}, tweets=included))

    # Partial errors beside data: a withheld user and a deleted included post.
    a, b = photo(201), photo(202)
    write("recent-search.partial-errors.json", page(
        [post(201, 0, [a["media_key"]], 0), post(202, 10, [b["media_key"]], 2)],
        [a, b], [user(0)],
        {"newest_id": tid(201), "oldest_id": tid(202), "result_count": 2},
        errors=[
            {"value": USERS[10][0], "detail": f"Could not find user with id: [{USERS[10][0]}].", "title": "Not Found Error",
             "resource_type": "user", "parameter": "author_id", "resource_id": USERS[10][0],
             "type": "https://api.twitter.com/2/problems/resource-not-found", "section": "includes"},
            {"resource_id": tid(1), "parameter": "entities.mentions.username", "resource_type": "tweet",
             "section": "includes", "title": "Authorization Error", "value": tid(1),
             "detail": "Sorry, you are not authorized to see the Tweet with id: [" + tid(1) + "].",
             "type": "https://api.twitter.com/2/problems/not-authorized-for-resource"},
        ]))

    # Includes missing a user and a media object; attachments without media (a poll); an unknown key.
    c, d = photo(301), photo(302)
    write("recent-search.missing-includes.json", page(
        [post(301, 0, [c["media_key"]], 0),
         post(302, 11, [d["media_key"]], 2),                       # author missing from includes.users
         post(303, 1, ["3_1859170000000399999"], 4),               # media missing from includes.media
         dict(post(304, 1, None, 6), attachments={"poll_ids": ["1859170000000000777"]}),  # no media
         dict(post(305, 2, [d["media_key"]], 8), future_field={"x": 1})],  # unknown key, shared media
        [c, d], [user(0), user(1), user(2)],
        {"newest_id": tid(301), "oldest_id": tid(305), "result_count": 5}))

    write("recent-search.empty.json", {"meta": {"result_count": 0}})

    # A short first page (fewer than asked) with next_token, and its second page.
    e = [photo(400 + i) for i in range(4)]
    write("recent-search.short-page1.json", page(
        [post(400 + i, i, [e[i]["media_key"]], i * 3) for i in range(4)], e, [user(i) for i in range(4)],
        {"newest_id": tid(400), "oldest_id": tid(403), "result_count": 4, "next_token": "7140dibdnow9c7btw4b0ufpbbeo2uuqm8r7q4cwquj9ab"}))
    f = [photo(410 + i) for i in range(3)]
    write("recent-search.short-page2.json", page(
        [post(410 + i, 4 + i, [f[i]["media_key"]], 20 + i * 3) for i in range(3)], f, [user(4 + i) for i in range(3)],
        {"newest_id": tid(410), "oldest_id": tid(412), "result_count": 3}))

    # An unknown media type beside a photo.
    h = photo(501)
    write("recent-search.unknown-media-type.json", page(
        [post(500, 0, ["21_1859170000000500000"], 0), post(501, 1, [h["media_key"]], 2)],
        [{"media_key": "21_1859170000000500000", "type": "hologram", "width": 10, "height": 10}, h],
        [user(0), user(1)], {"newest_id": tid(500), "oldest_id": tid(501), "result_count": 2}))

    # A 200 whose body is only errors.
    write("recent-search.errors-only.json", {"errors": [
        {"title": "Not Found Error", "detail": "Could not find the requested results.", "type": "https://api.x.com/2/problems/resource-not-found"}]})

    # Problem bodies.
    write("recent-search.400.json", {
        "errors": [{"parameters": {"query": ["has:images"]},
                    "message": "There were errors processing your request: Reference to invalid operator 'has:images'. Operator is not available in current product or product packaging. Please refer to complete available operator list at https://developer.twitter.com/en/docs/twitter-api/tweets/search/integrate/build-a-query. (at position 1)"}],
        "title": "Invalid Request", "detail": "One or more parameters to your request was invalid.",
        "type": "https://api.twitter.com/2/problems/invalid-request"})
    write("recent-search.401.json", {"title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized"})
    write("recent-search.403-client-not-enrolled.json", {
        "client_id": "29000000", "detail": "When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project. You can create a project via the developer portal.",
        "registration_url": "https://developer.twitter.com/en/docs/projects/overview", "title": "Client Forbidden",
        "required_enrollment": "Appropriate Level of API Access", "reason": "client-not-enrolled",
        "type": "https://api.twitter.com/2/problems/client-forbidden"})
    write("recent-search.429-rate-limit.json", {"title": "Too Many Requests", "detail": "Too Many Requests", "type": "about:blank", "status": 429})
    write("recent-search.429-usage-cap.json", {
        "account_id": 1500000000000000999, "product_name": "standard-basic",
        "title": "UsageCapExceeded", "period": "Monthly", "scope": "Product", "detail": "Usage cap exceeded: Monthly product cap",
        "type": "https://api.twitter.com/2/problems/usage-capped"})
    write("recent-search.503.json", {"title": "Service Unavailable", "detail": "Service Unavailable", "type": "about:blank", "status": 503})
    # Pay-per-use with an empty balance: 402 as X sends it, plain JSON (not problem+json), 185 bytes.
    with open(os.path.join(FIX, "recent-search.402-credits-depleted.json"), "w", encoding="utf-8") as f:
        f.write('{"type":"https://api.twitter.com/2/problems/credits","title":"CreditsDepleted","detail":"Your '
                'enrolled account [1500000000000000999] does not have any credits to fulfill this request."}')

    # Vocabulary drift (OpenAPI spec 2.167): the kpop page in the `posts` vocabulary.
    kpop = json.load(open(os.path.join(FIX, "recent-search.kpop.json"), encoding="utf-8"))
    drifted = json.loads(json.dumps(kpop).replace('"edit_history_tweet_ids"', '"edit_history_post_ids"'))
    drifted["includes"]["posts"] = drifted["includes"].pop("tweets")
    drifted["data"][0]["referenced_posts"] = [{"type": "quoted", "id": tid(99)}]
    write("recent-search.posts-vocabulary.json", drifted)

    # The API dropped fields kfeed asked for (an unknown `tweet.fields` value): a 200 without them.
    dropped = json.loads(json.dumps(kpop))
    for item in dropped["data"]:
        item.pop("attachments", None)
        item.pop("author_id", None)
    write("recent-search.fields-dropped.json", dropped)


# --- Replay directories: one per scenario, each a routes.json naming the bodies above. -----------------------
SEARCH = "/2/tweets/search/recent"


def replay(name, routes):
    d = os.path.join(FIX, "replay", name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "routes.json"), "w", encoding="utf-8") as f:
        json.dump({"routes": routes}, f, indent=2)
        f.write("\n")


def rl(remaining, reset=1795340700):
    return {"x-rate-limit-limit": "450", "x-rate-limit-remaining": str(remaining), "x-rate-limit-reset": str(reset),
            "content-type": "application/json; charset=utf-8"}


def sample_images():
    """Synthetic 'stage' pictures (one layout) and three avatars (gradients and shapes; no real photos). Needs Pillow."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        print("Pillow is not installed: kept the existing Fixtures/images")
        return
    d = os.path.join(FIX, "images")
    os.makedirs(d, exist_ok=True)
    palettes = [((88, 24, 140), (240, 90, 200)), ((10, 40, 120), (60, 200, 255)), ((140, 20, 40), (255, 180, 60)),
                ((20, 90, 60), (200, 255, 120)), ((30, 30, 30), (255, 255, 255)), ((120, 60, 10), (255, 120, 160))]
    # One picture per photo of the sample: a teaser series, one layout in other colours (distinct pictures that a
    # grey layout hash calls alike; the repost check must keep them all).
    seeded = random.Random(1859)
    while len(palettes) < SAMPLE_PICTURES:
        top = tuple(seeded.randrange(0, 160) for _ in range(3))
        palettes.append((top, tuple(min(255, c + seeded.randrange(60, 200)) for c in top)))
    for i, (top, bottom) in enumerate(palettes):
        w, h = (544, 680) if i % 2 == 0 else (680, 510)
        im = Image.new("RGB", (w, h))
        px = im.load()
        for y in range(h):
            t = y / (h - 1)
            row = tuple(int(top[c] + (bottom[c] - top[c]) * t) for c in range(3))
            for x in range(w):
                px[x, y] = row
        draw = ImageDraw.Draw(im)
        for k in range(7):  # spotlights
            cx, cy, r = (k * 97 + i * 53) % w, (k * 61 + i * 29) % (h // 2), 30 + (k * 17) % 60
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=tuple(min(255, c + 60) for c in bottom))
        draw.rectangle([w // 4, int(h * 0.72), 3 * w // 4, h], fill=top)  # the stage
        im.save(os.path.join(d, f"stage-{i + 1}.jpg"), quality=78, optimize=True)
    for i, colour in enumerate([(230, 120, 180), (90, 160, 240), (250, 200, 90)]):
        im = Image.new("RGB", (400, 400), colour)
        draw = ImageDraw.Draw(im)
        draw.ellipse([120, 70, 280, 230], fill=(255, 255, 255))
        draw.ellipse([60, 250, 340, 520], fill=(255, 255, 255))
        im.save(os.path.join(d, f"avatar-{i + 1}.jpg"), quality=80, optimize=True)
    with open(os.path.join(d, "broken.jpg"), "w") as f:
        f.write("<!doctype html><title>Error</title><p>This is an HTML error page served as image/jpeg.</p>\n")


def image_routes(pages):
    """Routes answering the sample's photo, preview and avatar URLs with the synthetic images."""
    routes, seen = [], set()
    media = [m for p in pages for m in p["includes"]["media"]]
    users = [u for p in pages for u in p["includes"]["users"]]
    for i, m in enumerate(media):
        url = m.get("url") or m.get("preview_image_url")
        path = url.split("pbs.twimg.com", 1)[1]
        if path.startswith("/media/"):
            path = path.rsplit(".", 1)[0]  # renditions are asked as /media/<id>?format=jpg&name=…
        if path in seen:
            continue
        seen.add(path)
        broken = m["media_key"] == "3_1859170000000100006"  # one chosen post's image is an HTML page: a placeholder
        body = "../../images/broken.jpg" if broken else f"../../images/stage-{i % SAMPLE_PICTURES + 1}.jpg"
        routes.append({"host": "pbs.twimg.com", "path": path, "headers": {"content-type": "image/jpeg"}, "body": body})
    for i, u in enumerate(users):
        path = u["profile_image_url"].split("pbs.twimg.com", 1)[1].replace("_normal.", "_400x400.")
        if path in seen:
            continue
        seen.add(path)
        routes.append({"host": "pbs.twimg.com", "path": path, "headers": {"content-type": "image/jpeg"},
                       "body": f"../../images/avatar-{i % 3 + 1}.jpg"})
    return routes


def routes():
    pages = [json.load(open(os.path.join(FIX, f"recent-search.sample-page{n}.json"), encoding="utf-8")) for n in (1, 2)]
    replay("sample", [
        {"path": SEARCH, "query": {"next_token": "b26v89c19zqg8o3fpe17ld5o1i6z6ze5ivkw1nk1wu0ot"}, "status": 200,
         "headers": rl(448), "body": "../../recent-search.sample-page2.json"},
        {"path": SEARCH, "status": 200, "headers": rl(449), "body": "../../recent-search.sample-page1.json"},
    ] + image_routes(pages))
    replay("short-pages", [
        {"path": SEARCH, "query": {"next_token": "7140dibdnow9c7btw4b0ufpbbeo2uuqm8r7q4cwquj9ab"}, "status": 200,
         "headers": rl(448), "body": "../../recent-search.short-page2.json"},
        {"path": SEARCH, "status": 200, "headers": rl(449), "body": "../../recent-search.short-page1.json"},
    ])
    for scenario, status, headers in [
        ("kpop", 200, rl(449)), ("partial-errors", 200, rl(449)), ("missing-includes", 200, rl(449)),
        ("empty", 200, rl(449)), ("unknown-media-type", 200, rl(449)), ("errors-only", 200, rl(449)),
        ("400", 400, {"content-type": "application/problem+json"}),
        ("401", 401, {"content-type": "application/problem+json"}),
        ("403-client-not-enrolled", 403, {"content-type": "application/problem+json"}),
        ("429-rate-limit", 429, dict(rl(0), **{"content-type": "application/problem+json"})),
        ("429-usage-cap", 429, dict(rl(447), **{"content-type": "application/problem+json"})),
        ("503", 503, {"content-type": "application/problem+json", "retry-after": "1"}),
        ("402-credits-depleted", 402, dict(rl(449), **{"api-version": "2.167"})),
        ("posts-vocabulary", 200, dict(rl(449), **{"api-version": "2.167"})),
        ("fields-dropped", 200, rl(449)),
    ]:
        replay(scenario, [{"path": SEARCH, "status": status, "headers": headers, "body": f"../../recent-search.{scenario}.json"}])


sample()
scenarios()
sample_images()
routes()
