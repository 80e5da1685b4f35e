import Foundation
import KFeedImages
import Synchronization

/// Families of pictures that share one composition and differ in colour and content, as a teaser series or a
/// fan-sign set does: distinct pictures to a viewer that a grey layout hash calls alike. Tests and the repost
/// benchmark use them for the side of repost detection that must never fire. Members of the later families
/// (`backdrop` on) are distinct by construction: no two share a subject's place, size and colour.
package enum LayoutFamily: String, CaseIterable, Sendable {
    /// The bundled sample's look: a vertical gradient, seven spotlight discs, a figure, a stage panel below.
    case stage
    /// A seeded tint over one gradient, split in two at a seeded height, with a seeded band of small shapes.
    case tint
    /// One backdrop (a fixed colour gradient) and one subject, a disc of about 3 % of the frame: member n puts it
    /// at the (n mod 20)th of 20 places, in the (n / 20)th of three hues, at one of three sizes (2.5–3.5 %).
    case backdrop
    /// A teaser series: one template (a dark frame, a banner with a logo, a name strip) around a picture window of
    /// 60 % × 55 % holding the member's own picture (a seeded grid of colour blocks) and a name of its own length.
    case teaser
    /// Near-black night shots: one dark gradient and two dim lights (2 % of the frame each); member n owns its
    /// pair of places (one of the 190 pairs of 20 places, none shared by two of the first 190 members).
    case night
    /// Flat colour and noise: 12 hues 30° apart at four brightnesses; flat at the first and third, noisy (±40
    /// a channel, seeded) at the second and fourth.
    case flat
    /// Text-heavy graphics drawn with the project's font stack: 5–9 lines of seeded words at one of three sizes
    /// (7–12 % of the width), on one of four papers.
    case text
    /// Quote cards: one layout (a ground of one of three colours, an accent bar and a quotation mark above, the
    /// quote's 2–5 lines of seeded words in large type, an attribution line below); only the words are the member's.
    case quote
    /// Product shots: one object (a bottle, a mug or a box) on a plain light ground with a soft shadow; member n
    /// owns its shape, one of ten hues and one of three poses (turned −20°, 0° or 20°).
    case product
    /// Collages: the same nine photo-like tiles (seeded gradients with a disc and a bar) in a 2×2 or 3×3 grid with
    /// white gutters; member n owns its arrangement (even members four tiles in a 2×2 grid, odd members all nine).
    case collage
    /// Spotlights on a dark stage: a dark floor and back wall, three to five soft coloured beams from above, each
    /// ending in a pool of light on the floor, at member-seeded places and colours.
    case spotlight
    /// Memes: a photo-like scene with white, black-outlined words over its top and bottom. Even members share one
    /// scene and own their words (one to two lines above, one to two below); odd members share one caption and own
    /// their scene.
    case meme
    /// Screenshots of a post in an app: one light layout (a top bar, an avatar, a name and a handle, 2–5 lines of
    /// text, a date, a divider, a row of actions); the avatar's colours, the name's length and the words are the
    /// member's.
    case post
    /// Bar charts in one style (a title, axes, grid lines, eight bars of one colour): only the data, each bar's
    /// height, is the member's.
    case chart
    /// Street maps in one style (a beige ground, a river, parks, a grid of white streets with a main road, a red pin):
    /// the streets' places, the river's course, the parks and the pin are the member's.
    case map
    /// Event tickets of one template (a dark ground, an orange ticket with a perforated stub, a barcode): the
    /// artist's name, the date, the venue, the seat and the barcode's bars are the member's.
    case ticket
    /// Presentation slides of one template (a navy title bar, square bullets, a footer rule, a logo): the title,
    /// the 3–5 bullet lines and the page number are the member's.
    case slide
    /// Weather cards of one style (a flat sky-blue card, a city name, a large temperature, an icon, five days below): the
    /// city, the numbers and the icons (sun, cloud or rain) are the member's.
    case weather
    /// Calendar pages under one shared photo-like scene: the month's name, its grid of day numbers (its first
    /// weekday and length) and one ringed day are the member's.
    case calendar
    /// Sports score cards of one layout (a dark green card, a league bar, two team badges with initials, the two
    /// names, a large score, the minute): the teams, their badges' colours and the score are the member's.
    case scorecard
    /// Shop receipts of one template (a white slip on a grey counter, the shop's name, 6–10 item lines with
    /// prices, a rule, the total, a barcode): the items, the prices and the barcode's bars are the member's.
    case receipt
    /// Lyrics cards: one darkened photo-like scene behind 2–4 centred lines of lyrics and a song title below it;
    /// only the words are the member's.
    case lyrics
    /// Leaderboards of one layout (a header bar, ten rows of rank, name and points on alternating shades): the
    /// names and the numbers are the member's.
    case leaderboard
    /// A photo grid of one template (3×3 photo-like tiles with white gutters) in which member n replaces one tile,
    /// the (n mod 9)th, with a picture of its own (other colours, a disc elsewhere).
    case grid
    /// Chess positions on one board (a wooden frame, cream and green squares, round and square pieces in white and
    /// black): every member starts from one opening position and makes 2–5 seeded moves of its own.
    case chess
    /// Book covers of one series: one photo-like scene under a coloured title band, the title (1–3 words) and the
    /// author's name are the member's.
    case cover
    /// Boarding passes of one airline (a white card on a blue ground, a red header, two large airport codes, small
    /// type for the name, flight, gate, seat and time, a square code of cells): all but the template is the member's.
    case boarding
    /// Chat screenshots of one app (a header with an avatar, grey bubbles on the left, blue ones on the right, an
    /// input bar): the bubbles' number, sides, lengths and words are the member's.
    case chat
    /// Code screenshots in one editor theme (a dark ground, a tab, a gutter of line numbers, 14–20 lines of
    /// keywords, names and strings in the theme's colours): the lines' indents, lengths and words are the member's.
    case code
    /// Restaurant menus of one template (a dark green board, a cream card, the restaurant's name, two headed
    /// sections of 4–6 dishes with prices in small type, a footer): the dishes and the prices are the member's.
    case menu
    /// Train timetables of one operator (a yellow header with the line's name, a grid of 6 stations by 7 trains of
    /// departure times in small type on alternating shades): the times and the stations' order are the member's.
    case timetable
    /// Sudoku puzzles in one newspaper style (a thick-ruled 9×9 grid on newsprint, a small heading): the 24–32 given
    /// digits and their places are the member's.
    case sudoku
    /// Event posters of one design (one shared photo-like scene, a band's name in large type, a red date bar):
    /// only the small type (the date, the city and venue, the support acts) is the member's.
    case poster
    /// Sheet music in one engraving (a title, five staves of five lines, a clef mark, bar lines): the notes' places,
    /// stems and the bars' count are the member's.
    case sheet
    /// Nutrition-facts labels of one template (a white label with black rules on a pale ground, a heading, the
    /// serving size, calories in large type, twelve nutrient rows with amounts and daily values in small type): the
    /// serving, the calories and every amount and percentage are the member's.
    case nutrition
    /// A crossword of one newspaper (a 13×13 grid with one fixed pattern of black squares, clue numbers, a heading):
    /// a solver's progress, 40–70 letters drawn at member-seeded cells (those on black squares left out), and 0–3
    /// black squares of its own.
    case crossword
    /// Stock-ticker tables of one app (a dark ground, a header, twelve rows of one watchlist's symbols with price,
    /// change and a small trend bar in green or red): the prices, the changes and their signs are the member's.
    case ticker
    /// Shelf labels of one shop (a grey shelf edge holding two rows of three yellow price tags: a product name and
    /// unit price in small type, a price in large type): the products and the prices are the member's.
    case shelf
    /// Picture-in-picture news thumbnails from real photos: one real photo (the corpus's mountain scene; the corpus is
    /// read from the environment's `KFEED_CORPUS`, default `/tmp/kfeed-corpus`, made by `bench/corpus.sh`) as the
    /// backdrop and, framed in white, an inset of another real photo covering about 15 % of the frame: member n shows
    /// the (n mod 12)th of twelve corpus photos at the (n / 12)th of six places (two columns, three rows).
    case inset
    /// One real scene with a different small real subject pasted in: the corpus's dusk-over-the-sea photo as the
    /// backdrop and a disc of about 4 % of the frame cut from another corpus photo: member n shows the (n mod 8)th of
    /// eight photos at the (n / 8)th of nine places (a 3×3 grid inside the square a `small` widget crops to).
    case pasted
    /// One product photographed in different colours: the corpus's real photo of a fig on a glazed bowl
    /// (`09-picture0b.jpg`) with the bowl's orange-red glaze (the pixels near its hue and saturated, blended in over a
    /// soft edge) given another colour: member n has the (n mod 12)th of twelve hues 30° apart and the (n / 12)th of
    /// six finishes (saturation and brightness pairs); the fig (an ellipse around it left as it is: its flesh shares the
    /// glaze's hue), the ground and the shadow are the photo's.
    case colourway
    /// A burst of one real scene where a subject moved: the corpus's mountain photo (`19-picosdeeuropa.jpg`) as the
    /// scene and one real subject, a disc of about 2 % of the frame showing the corpus's cups (`12-colorfulcups.jpg`),
    /// a ball in flight: member n has it at the nth of 72 places on a 12 × 6 grid inside the widget's square, 6.9 %
    /// of the width apart across (less than half its diameter) and 14.4 % down.
    case burst
    /// A dark, low-contrast real scene lit by a torch: the corpus's pier by the water (`11-bythewater.jpg`) at a tenth
    /// of its brightness, and a soft round patch of light (a radius of 10 % of the width) showing it at full
    /// brightness: member n lights the nth of 72 places on a 12 × 6 grid inside the widget's square.
    case torch
    /// A tile puzzle of one real photo, the corpus's mountain stream (`18-life-base.jpg`) cut into 4 × 4 tiles with
    /// dark gaps inside a wooden frame that fills the widget's square: member n has two tiles swapped, the (7n mod
    /// 120)th of the 120 pairs of tiles (so two members differ in two to four tiles).
    case puzzle
    /// Side-by-side comparison posts of two real photos: two corpus photos, each 45 % × 80 % of the widget's square,
    /// on white: member n shows the (5n mod 78)th of the 78 pairs of thirteen corpus photos (01–08, 10, 13, 15, 20,
    /// 21), the one earlier in that list on the left.
    case diptych
    /// Framings of one big real photo, as a photographer posts a series of details of one scene: member n shows the
    /// (n mod 24)th of 24 framings (a grid of 6 across by 4 down, each framing 55 % of its own width and height from
    /// the next, so two framings of one photo share at most about 45 % of their area) of the (n / 24)th of three
    /// detailed corpus photos (`18-life-base.jpg`, a mountain stream in a wood; `12-colorfulcups.jpg`, rows of cups;
    /// `24-seeding.jpg`, dandelion clocks in a meadow), filling the frame.
    case pan
    /// Real scenes in a dense fog: member n shows the (n mod 6)th of six framings (3 across by 2 down, each 60 % of
    /// its size from the next: about 40 % shared) of the (n / 6)th of twelve corpus photos, seen through a pale
    /// grey-blue fog (200, 204, 210) that lets 30 % of the scene through at the top and 55 % at the bottom.
    case fog
    /// Real scenes made night shots ("day for night"): member n shows the (n mod 6)th of six framings (3 across by 2
    /// down, each 60 % of its size from the next: about 40 % shared) of the (n / 6)th of twelve corpus photos,
    /// darkened (each channel to 35 % of its level raised to the power 1.5, so that a white sky is at 89) and cooled
    /// (red × 0.75, green × 0.9, blue × 1.15).
    case dusk
    /// Photo mosaics: a 6 × 6 grid of square tiles without gaps filling the square a `small` widget crops to, each
    /// tile a real corpus photo's centre (one of the 24), on a dark ground; the tiles' photos are the member's (drawn
    /// by a seeded generator, so two members share on average 1.5 of 36 tiles at one place).
    case mosaic
    /// The view from one window: one drawn interior (a warm grey wall, a white window frame with a cross of mullions
    /// and a sill) whose four panes, an opening of 70 % × 75 % of the widget's square, show a real view: member n
    /// shows the (n mod 6)th of six framings (3 across by 2 down, each 60 % of its size from the next: about 40 %
    /// shared) of the (n / 6)th of twelve corpus photos of outdoor scenes.
    case window
    /// One person in different poses, as a series of photos of one dancer: a stylised figure (the corpus has no photo
    /// of a person: a silhouette of a head, a body, two arms and two legs) cut from the corpus's real photo of an
    /// orange flower (`03-freshflower.jpg`, fitted to a box around the figure, so the figure keeps its own texture
    /// wherever it stands) on one real backdrop, the corpus's meadow under a mountain (`17-aitzgorri.jpg`): member n
    /// has the (n mod 12)th of twelve poses (arms down, raised, spread, one waving, a star jump, walking, pointing,
    /// arms akimbo, a kick, a lunge, cheering, reaching across) at the (n / 12)th of six places (3 across by 2 down
    /// inside the widget's square), the figure about 48 % of the square high when it stands.
    case pose
    /// News cards of one template with different real photos and text: a white card with a red masthead, a real
    /// photo (the (n / 24)th of three side-by-side thirds, which share no pixel, of the (n mod 24)th corpus photo)
    /// 42 % of the widget's square high, a seeded section, a three-line seeded headline and a byline.
    case news
    /// A teaser series: one dark poster template (a night-blue ground, an arched window, the series' title, a big
    /// "episode N" and a seeded date) whose window shows a real photo: member n shows the (n / 24)th third of the
    /// (7n mod 24)th corpus photo and is episode n + 1.
    case episode
    /// A dark, low-contrast screen: a music player in a dark theme (near-black ground, dim grey text) whose album art
    /// is a real photo dimmed to a third of its contrast: member n shows the (n / 24)th third of the (5n mod 24)th
    /// corpus photo, a seeded title and artist, a seeded place in the track and its time.
    case player
    /// Screenshots of one photo viewer with different real photos: a light window (a title bar naming the file, a
    /// sidebar listing eight seeded file names, one of them selected, a dark pane showing the photo, a status bar of
    /// its seeded size and exposure) over a blue-grey desktop: member n shows the (n / 24)th third of the (11n mod
    /// 24)th corpus photo.
    case viewer
    /// Near-black night shots of real scenes with a few lights on: member n shows the (n / 24)th third of the (13n mod
    /// 24)th corpus photo darkened almost to black (each channel to 11 % of its level raised to the power 1.4, so that
    /// white is at 28, and cooled: red × 0.8, green × 0.9, blue × 1.2) with 6–10 seeded lit windows (small warm
    /// rectangles) and 2–3 seeded street lamps (a bright core in a dim halo) inside the widget's square.
    case lights
    /// Grainy low-light photos, as a phone takes them indoors at night: member n shows the (n / 24)th third of the
    /// (17n mod 24)th corpus photo with its contrast lowered and its blacks lifted (each channel 40 + 45 % of its
    /// level) under heavy seeded sensor noise (luminance noise of up to ±60 levels, a sum of three uniform draws, and
    /// colour noise of up to ±24 levels a channel, new in every member).
    case grain
    /// Different real objects on one table: the corpus's wooden pier (`11-bythewater.jpg`) as the table top and three
    /// objects on it, a round plate, a turned card and an oval dish, each with a dark shadow and cut from another
    /// corpus photo: member n puts the (n mod 24)th photo on the plate, the (n + 5 + 2(n / 24)) mod 24th on the card
    /// and the (n + 11 + 7(n / 24)) mod 24th in the dish, so two members share at most one object at one place.
    case table
    /// Text-heavy infographics of one template: a white card with a real photo strip at the top (the (n / 24)th third
    /// of the (n mod 24)th corpus photo), a seeded title, five labelled rows of seeded figures, each with a bar of its
    /// length and its percentage, and a seeded source line.
    case infographic
    /// A comic strip of four real photo panels: a white page, four panels in black borders (2 × 2), each a third of a
    /// corpus photo: panel k of member n shows the ((n / 24 + k) mod 3)th third of the ((n mod 24) + 6k) mod 24th
    /// photo, so no two members show one photo part in one panel (each of the 72 parts is in four members, in another
    /// panel each time); a seeded caption box and two speech bubbles of seeded words.
    case comic
    /// One billboard in one real landscape, photographed in different weather with a different advert each time: the
    /// corpus's mountains (`19-picosdeeuropa.jpg`) with a billboard on two posts whose advert (56 % × 26 % of the
    /// widget's square) is the (n / 24)th third of the (19n mod 24)th corpus photo, so no two members show one advert,
    /// above a strip of a seeded slogan in a seeded colour; the whole scene under the ((n + n / 24) mod 6)th of six
    /// weathers (clear, golden hour, overcast, a storm, falling snow, rain; the snowflakes and raindrops seeded).
    case billboard
    /// Lock screens of one phone over different real wallpapers: the (n / 24)th third of the (23n mod 24)th corpus
    /// photo fills the screen under a translucent interface (a dark status bar, a seeded clock in large white type and
    /// a date, one to three translucent white notification cards of a seeded app and seeded words, two round buttons
    /// and a home bar), the wallpaper showing through every part of it.
    case lockscreen
    /// A washed-out backlit scene with a small dark subject of another kind at another place: the corpus's sunset over
    /// hills (`21-sunset.jpg`) with its contrast lowered (each channel 96 + 40 % of its level) under a warm glare
    /// around the sun, and one subject dark against it (each channel 12 + 45 % of its level) cut from the (n / 24)th
    /// third of the ((5n + 3) mod 24)th corpus photo, so no two members show one subject: in the ((n / 9) mod 4)th of
    /// four shapes (a disc, a tall ellipse, a turned square, a wide ellipse; 4.5–5.3 % of the widget's square) at the
    /// (n / 36)th of two sizes (full, or 0.72 of it across) at the (n mod 9)th of nine places (3 × 3 inside the
    /// square), so two members at one place differ in shape or size.
    case backlit
    /// Product cards of one shop: one template (a green shop header, a white card, a photo of the product, its
    /// seeded name and price, a seeded rating of five stars, three seeded colour swatches, a button) whose product
    /// photo (56 % × 46 % of the widget's square) is the (n / 24)th third of the ((5n + 7) mod 24)th corpus photo, so
    /// no two members show one product; every third member also a seeded sale badge.
    case listing
    /// A bright, mostly white minimal graphic with one small real photo: an off-white page with a hairline frame, a
    /// number and a seeded word line in small grey type, and one disc (24 % of the widget's square across) showing the
    /// (n / 24)th third of the ((11n + 2) mod 24)th corpus photo, so no two members show one photo part, at the ((n + n
    /// / 24) mod 6)th of six places (3 × 2 inside the square).
    case minimal
    /// A sports broadcast's score overlay on different real frames: member n shows the (n / 24)th third of the ((7n +
    /// 1) mod 24)th corpus photo over the whole frame, so no two members show one frame, under a broadcaster's mark
    /// and a dark score bar of two seeded teams (each a three-letter name and its colour), their seeded scores and a
    /// seeded clock.
    case scoreboard
    /// A planner's month page with a real photo of the month: an off-white page, the (n / 24)th third of the ((13n +
    /// 7 + n / 24) mod 24)th corpus photo as the month's photo (88 % × 40 % of the widget's square), so no two members
    /// show one photo part, the ((n + 4(n / 24)) mod 12)th month's name and a seeded year, and its grid of days
    /// starting on a seeded weekday with two to four seeded days marked by discs of a seeded colour.
    case planner
    /// A video call: a speaker's large tile (94 % × 56 % of the widget's square, the (n / 24)th third of the ((5n +
    /// 11) mod 24)th corpus photo, so no two members show one speaker) in a green frame, a strip of three small tiles
    /// below (tile k the ((n / 24 + k + 1) mod 3)th third of the ((n mod 24) + 8k + 2) mod 24th photo, so no two
    /// members show one part in one tile), a seeded name on each tile and a toolbar of seeded muted buttons.
    case callgrid
    /// A before/after split of two real photos: the (n / 24)th third of the ((5n + 1) mod 24)th corpus photo on the
    /// left half and the ((n / 24 + 1) mod 3)th third of the ((7n + 4) mod 24)th on the right, so no two members show
    /// one part on one side, a white divider with a round handle and a seeded pair of labels (before and after, then
    /// and now, two years, two days).
    case beforeafter
    /// A real photo under a heavy vignette with a small bright subject in its dark edge: the (n / 24)th third of the
    /// ((11n + 5 + n / 24) mod 24)th corpus photo, full at the centre of the widget's square and darkened to 8 % of
    /// its level from 0.55 of the square's side away, and a disc (15 % of the square across) of the ((n / 24 + 2) mod
    /// 3)th third of the ((13n + 9 + 5(n / 24)) mod 24)th photo, lifted (60 + 80 % of its level), at the ((n + 3(n /
    /// 24)) mod 8)th of eight places round the square's edge; no two members show one scene or one subject.
    case vignette
    /// A polaroid print lying on one wooden desk, each member another real photo in it: the desk (warm brown boards,
    /// the same in every member), a white print (72 % × 86 % of the widget's square) whose window (62 % × 56 %) shows
    /// the (n / 24)th third of the ((17n + 3 + 7(n / 24)) mod 24)th corpus photo, so no two members show one photo
    /// part, and a seeded caption (a place and a year) in blue ink on the print's wide lower margin.
    case polaroid
    /// A social "story" of one template: one purple-to-orange gradient backdrop, a seeded number of progress segments
    /// (the seeded current one white), a seeded account's initial disc and name, a card (68 % × 42 % of the widget's
    /// square) showing the (n / 24)th third of the ((19n + 5 + 5(n / 24)) mod 24)th corpus photo, so no two members
    /// show one photo part, two seeded lines of large white text and a reply bar.
    case story
    /// A recipe card of one template: a cream card, a terracotta header, a white plate (a disc 50 % of the widget's
    /// square across) holding a disc (44 %) of the (n / 24)th third of the ((5n + 13 + 11(n / 24)) mod 24)th corpus
    /// photo, so no two members show one dish, the dish's seeded name, its seeded servings and minutes and five seeded
    /// ingredient lines.
    case recipe
    /// An ID badge of one template on a lanyard: a grey backdrop, a strap and clip, a white card with a header band
    /// of a seeded department's colour, a portrait (40 % × 36 % of the widget's square) of the (n / 24)th third of
    /// the ((7n + 17 + 13(n / 24)) mod 24)th corpus photo, so no two members show one portrait, a seeded name and role
    /// and a seeded barcode.
    case badge
    /// A postage stamp on one envelope: an off-white envelope, a large perforated stamp (56 % × 54 % of the widget's
    /// square) whose picture (48 % × 40 %) is the (n / 24)th third of the ((23n + 7 + 17(n / 24)) mod 24)th corpus
    /// photo, so no two members show one stamp picture, its seeded value and country on one line, a postmark of a seeded town and
    /// date with wavy cancel lines, and two seeded lines of the address.
    case stamp
    /// A magazine's covers under one masthead, each another real cover photo: the (n / 24)th third of the ((11n + 1 +
    /// 5(n / 24)) mod 24)th corpus photo fills the widget's square, so no two members show one cover photo, under the
    /// masthead (the same red word in every member), a seeded issue number and month, a seeded headline of large
    /// white words and two seeded lines of smaller yellow ones, and a seeded price on a red disc.
    case magazine
    /// A phone's home screen over one wallpaper, each member with another real photo in its photo widget: the
    /// corpus's lake (`11-bythewater.jpg`, the same in every member) under a status bar with a seeded time, a photo
    /// widget (42 % × 42 % of the widget's square, in a white border) showing the (n / 24)th third of the ((13n + 9 +
    /// 7(n / 24)) mod 24)th corpus photo, so no two members show one photo part, a translucent clock widget with a
    /// seeded time and date, eight app icons of fixed colours and names and a dock of four.
    case homescreen
    /// A map app's place card over one drawn street map: the map (a beige ground, white streets, a park and a river,
    /// the same in every member), a red pin at a seeded place above the card, and a white card whose photo (40 % × 40 %
    /// of the widget's square) is the (n / 24)th third of the ((19n + 21 + 3(n / 24)) mod 24)th corpus photo, so no
    /// two members show one place, with the place's seeded name, kind, rating and distance and a blue button.
    case placecard
    /// A concert ticket stub of one template with another real photo strip: a dark ground, a cream ticket whose left
    /// strip (30 % × 68 % of the widget's square) shows the (n / 24)th third of the ((7n + 5 + 19(n / 24)) mod 24)th
    /// corpus photo, so no two members show one strip, a seeded artist (two words, large), venue, date, row and seat,
    /// a perforated tear line and a seeded barcode on the stub.
    case stub
    /// A security camera's night-vision frames: the (n / 24)th third of the ((5n + 3 + 13(n / 24)) mod 24)th corpus
    /// photo fills the widget's square in dim green (green 8 + 70 % of its grey level, red and blue 30 % of that,
    /// every fourth row darker), so no two members show one scene, under a seeded camera number and time stamp in
    /// white and a red recording dot.
    case nightcam
    /// A hazy panorama of one real scene, each member another stretch of it with another real subject near the viewer:
    /// the (n mod 12)th of twelve neighbouring stretches (6 across by 2 down, each 55 % of its size from the next) of
    /// the corpus's mountains (`19-picosdeeuropa.jpg`) under a pale haze that lets 38 % of the scene through, and, in
    /// front of it and clearer (80 % through), a tall ellipse (24 % × 34 % of the widget's square) of the (n / 24)th
    /// third of the ((17n + 11 + 5(n / 24)) mod 24)th corpus photo at the ((n / 12) mod 6)th of six places (3 × 2), so
    /// no two members show one subject or one stretch at one place.
    case haze
    /// App store pages of one layout with other real screenshots: a light page under the store's bar, an app icon of a
    /// seeded hue with its initial, a seeded app name, developer, rating and review count, a green install button and
    /// two phone screenshots (39 % × 44 % of the widget's square in dark frames): the (n / 24)th third of the ((23n + 2 +
    /// 7(n / 24)) mod 24)th corpus photo and the ((n / 24 + 1) mod 3)th third of the ((5n + 13 + 11(n / 24)) mod 24)th,
    /// so no two members show one screenshot in one frame, and a seeded line of description.
    case appstore
    /// A gallery wall of one hanging with other real pictures in its frames: a warm grey wall, a skirting board and a
    /// wooden floor, three frames (gold, black, oak; the same places and sizes in every member) each with a mat, frame k
    /// of member n showing the ((n / 24 + k) mod 3)th third of the ((n mod 24) + 8k + 3 + t(k) (n / 24)) mod 24th
    /// corpus photo, t being 1, 7 and 11, so no two members show one picture in one frame nor two members thirds of
    /// the same photos in two frames, and a wall label of a seeded title and year.
    case gallery
    /// A newspaper's front pages under one masthead: newsprint, the masthead (the same words in every member), a
    /// seeded volume, number, date and price, a seeded two-line headline, a lead photo printed grey (56 % × 36 % of the
    /// widget's square) of the (n / 24)th third of the ((13n + 4 + 17(n / 24)) mod 24)th corpus photo, so no two
    /// members show one lead photo, a seeded caption, a column of seeded small type beside it and three below.
    case frontpage
    /// Video thumbnails of one channel over other real frames, as a video site lists them in its dark theme: a 16:9
    /// frame (the widget's square's width) of the (n / 24)th third of the ((19n + 6 + n / 24) mod 24)th corpus photo,
    /// so no two members show one frame, under the channel's red banner (the same in every member), a seeded title in
    /// large white outlined words over it, a seeded duration, a red progress bar of a seeded length, and below it the
    /// channel's round avatar, a seeded two-line title, and the channel's name with seeded views and age.
    case thumbnail

    /// Draws member `seed` with `draw`, its random numbers from a generator of its own: `seed` scrambled with
    /// `salt`, so that a family's members do not share the draws of the generator the others use.
    private static func drawn(
        _ seed: Int,
        salt: Int,
        canvas: inout Canvas,
        _ draw: (Int, inout SeededRandom, inout Canvas) -> Void
    ) {
        var own = SeededRandom(scrambling: seed &+ salt)
        draw(seed, &own, &canvas)
    }

    /// RGB pixels of member `seed` of the family, `width`×`height`.
    package func picture(seed: Int, width: Int, height: Int) -> [UInt8] {
        var random = SeededRandom(seed: UInt64(truncatingIfNeeded: seed) &+ (self == .stage ? 0 : 1 << 32))
        var canvas = Canvas(width: width, height: height)
        let area = Double(width * height) / Double(min(width, height) * min(width, height))
        /// The radius (of the shorter side) of a disc covering `share` of the frame.
        func radius(_ share: Double) -> Double { (share * area / Double.pi).squareRoot() }
        switch self {
        case .backdrop:
            canvas.gradient(from: TestJPEG.Colour(40, 60, 140), to: TestJPEG.Colour(200, 120, 80))
            let place = seed % 20
            let colour = Self.hsv(hue: Double(seed / 20 % 3) * 120 + 30, saturation: 0.9, value: 0.95)
            let share = [0.025, 0.03, 0.035][seed / 5 % 3]
            canvas.disc(
                x: 0.2 + Double(place % 5) * 0.15,
                y: 0.25 + Double(place / 5) * 0.5 / 3,
                radius: radius(share),
                colour: colour
            )
        case .teaser:
            canvas.gradient(from: TestJPEG.Colour(20, 20, 30), to: TestJPEG.Colour(30, 24, 40))
            canvas.rectangle(x: 0, y: 0, width: 1, height: 0.15, colour: TestJPEG.Colour(230, 40, 90))
            canvas.rectangle(x: 0.05, y: 0.03, width: 0.2, height: 0.09, colour: TestJPEG.Colour(250, 250, 250))
            let (left, top) = (Int(0.2 * Double(width)), Int(0.2 * Double(height)))
            let (w, h) = (Int(0.6 * Double(width)), Int(0.55 * Double(height)))
            let photo = TestJPEG.blocks(seed: seed + 1_000, width: w, height: h)
            canvas.paste(photo, channels: 3, width: w, height: h, left: left, top: top)
            let name = 0.15 + Double(seed % 7) * 0.1
            canvas.rectangle(
                x: 0.5 - name / 2,
                y: 0.82,
                width: name,
                height: 0.06,
                colour: TestJPEG.Colour(240, 240, 240)
            )
        case .night:
            canvas.gradient(from: TestJPEG.Colour(4, 4, 10), to: TestJPEG.Colour(16, 14, 24))
            // Pair number `seed × 37 mod 190` of the 190 unordered pairs of places: no two of the first 190
            // members share their two places.
            let pairs = (0..<20).flatMap { a in ((a + 1)..<20).map { (a, $0) } }
            let pair = pairs[seed * 37 % pairs.count]
            for (index, place) in [pair.0, pair.1].enumerated() {
                let level = 60 + 25 * ((seed / 20 + index) % 3)
                canvas.disc(
                    x: 0.2 + Double(place % 5) * 0.15,
                    y: 0.25 + Double(place / 5) * 0.5 / 3,
                    radius: radius(0.02),
                    colour: TestJPEG.Colour(UInt8(level), UInt8(level * 9 / 10), UInt8(level * 7 / 10))
                )
            }
        case .flat:
            let level = seed / 12 % 4
            let colour = Self.hsv(hue: Double(seed % 12) * 30, saturation: 0.6, value: [0.9, 0.7, 0.5, 0.3][level])
            canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: colour)
            if level % 2 == 1 {
                for index in stride(from: 0, to: canvas.pixels.count, by: 1) {
                    let jitter = Int(random.next() % 81) - 40
                    canvas.pixels[index] = UInt8(max(0, min(255, Int(canvas.pixels[index]) + jitter)))
                }
            }
        case .text:
            let papers: [[UInt8]] = [[255, 255, 255], [250, 240, 215], [24, 24, 28], [30, 60, 120]]
            let paper = papers[seed % 4]
            let ink: [UInt8] = seed % 4 < 2 ? [20, 20, 20] : [245, 245, 245]
            let words = [
                "tour", "announcement", "tickets", "on", "sale", "friday", "seoul", "stage", "live", "new", "album",
                "comeback", "schedule", "teaser", "open", "the", "fan", "meeting", "photo", "week", "concept",
            ]
            let lines = (0..<(5 + seed % 5)).map { _ in
                (0..<(2 + Int(random.next() % 4))).map { _ in words[Int(random.next() % UInt64(words.count))] }
                    .joined(separator: " ")
            }
            let size = [40, 52, 64][seed / 4 % 3] * min(width, height) / 544
            guard
                let rgbx = FontStack.graphic(
                    lines,
                    width: width,
                    height: height,
                    pixelSize: size,
                    ink: ink,
                    paper: paper
                )
            else { return canvas.pixels }
            for index in 0..<(width * height) {
                canvas.pixels[index * 3] = rgbx[index * 4]
                canvas.pixels[index * 3 + 1] = rgbx[index * 4 + 1]
                canvas.pixels[index * 3 + 2] = rgbx[index * 4 + 2]
            }
        case .quote:
            Self.quote(seed: seed, random: &random, canvas: &canvas)
        case .product:
            Self.product(seed: seed, canvas: &canvas)
        case .collage:
            Self.collage(seed: seed, canvas: &canvas)
        case .spotlight:
            Self.spotlight(random: &random, canvas: &canvas)
        case .meme:
            Self.meme(seed: seed, canvas: &canvas)
        case .post:
            var own = SeededRandom(scrambling: seed)
            Self.post(random: &own, canvas: &canvas)
        case .chart:
            var own = SeededRandom(scrambling: seed)
            Self.chart(random: &own, canvas: &canvas)
        case .map:
            var own = SeededRandom(scrambling: seed)
            Self.map(random: &own, canvas: &canvas)
        case .ticket:
            var own = SeededRandom(scrambling: seed &+ 70_001)
            Self.ticket(random: &own, canvas: &canvas)
        case .slide:
            Self.drawn(seed, salt: 70_002, canvas: &canvas, Self.slide(seed:random:canvas:))
        case .weather:
            var own = SeededRandom(scrambling: seed &+ 70_003)
            Self.weather(random: &own, canvas: &canvas)
        case .calendar:
            Self.drawn(seed, salt: 70_004, canvas: &canvas, Self.calendar(seed:random:canvas:))
        case .scorecard:
            var own = SeededRandom(scrambling: seed &+ 80_001)
            Self.scorecard(random: &own, canvas: &canvas)
        case .receipt:
            var own = SeededRandom(scrambling: seed &+ 80_002)
            Self.receipt(random: &own, canvas: &canvas)
        case .lyrics:
            var own = SeededRandom(scrambling: seed &+ 80_003)
            Self.lyrics(random: &own, canvas: &canvas)
        case .leaderboard:
            var own = SeededRandom(scrambling: seed &+ 80_004)
            Self.leaderboard(random: &own, canvas: &canvas)
        case .grid:
            Self.grid(seed: seed, canvas: &canvas)
        case .chess:
            var own = SeededRandom(scrambling: seed &+ 90_001)
            Self.chess(random: &own, canvas: &canvas)
        case .cover:
            var own = SeededRandom(scrambling: seed &+ 90_002)
            Self.cover(random: &own, canvas: &canvas)
        case .boarding:
            var own = SeededRandom(scrambling: seed &+ 90_003)
            Self.boarding(random: &own, canvas: &canvas)
        case .chat:
            var own = SeededRandom(scrambling: seed &+ 90_004)
            Self.chat(random: &own, canvas: &canvas)
        case .code:
            var own = SeededRandom(scrambling: seed &+ 90_005)
            Self.code(random: &own, canvas: &canvas)
        case .menu:
            var own = SeededRandom(scrambling: seed &+ 90_006)
            Self.menu(random: &own, canvas: &canvas)
        case .timetable:
            var own = SeededRandom(scrambling: seed &+ 90_007)
            Self.timetable(random: &own, canvas: &canvas)
        case .sudoku:
            var own = SeededRandom(scrambling: seed &+ 90_008)
            Self.sudoku(random: &own, canvas: &canvas)
        case .poster:
            var own = SeededRandom(scrambling: seed &+ 90_009)
            Self.poster(random: &own, canvas: &canvas)
        case .sheet:
            var own = SeededRandom(scrambling: seed &+ 90_010)
            Self.sheet(random: &own, canvas: &canvas)
        case .nutrition:
            var own = SeededRandom(scrambling: seed &+ 100_001)
            Self.nutrition(random: &own, canvas: &canvas)
        case .crossword:
            var own = SeededRandom(scrambling: seed &+ 100_002)
            Self.crossword(random: &own, canvas: &canvas)
        case .ticker:
            var own = SeededRandom(scrambling: seed &+ 100_003)
            Self.ticker(random: &own, canvas: &canvas)
        case .shelf:
            var own = SeededRandom(scrambling: seed &+ 100_004)
            Self.shelf(random: &own, canvas: &canvas)
        case .inset:
            Self.inset(seed: seed, canvas: &canvas)
        case .pasted:
            Self.pasted(seed: seed, canvas: &canvas)
        case .colourway:
            Self.colourway(seed: seed, canvas: &canvas)
        case .burst:
            Self.burst(seed: seed, canvas: &canvas)
        case .torch:
            Self.torch(seed: seed, canvas: &canvas)
        case .puzzle:
            Self.puzzle(seed: seed, canvas: &canvas)
        case .diptych:
            Self.diptych(seed: seed, canvas: &canvas)
        case .pan:
            Self.pan(seed: seed, canvas: &canvas)
        case .fog:
            Self.fog(seed: seed, canvas: &canvas)
        case .dusk:
            Self.dusk(seed: seed, canvas: &canvas)
        case .mosaic:
            var own = SeededRandom(scrambling: seed &+ 110_001)
            Self.mosaic(random: &own, canvas: &canvas)
        case .window:
            Self.window(seed: seed, canvas: &canvas)
        case .pose:
            Self.pose(seed: seed, canvas: &canvas)
        case .news:
            Self.drawn(seed, salt: 120_001, canvas: &canvas, Self.news(seed:random:canvas:))
        case .episode:
            Self.drawn(seed, salt: 120_002, canvas: &canvas, Self.episode(seed:random:canvas:))
        case .player:
            Self.drawn(seed, salt: 120_003, canvas: &canvas, Self.player(seed:random:canvas:))
        case .viewer:
            Self.drawn(seed, salt: 120_004, canvas: &canvas, Self.viewer(seed:random:canvas:))
        case .lights:
            Self.drawn(seed, salt: 130_001, canvas: &canvas, Self.lights(seed:random:canvas:))
        case .grain:
            Self.drawn(seed, salt: 130_002, canvas: &canvas, Self.grain(seed:random:canvas:))
        case .table:
            Self.table(seed: seed, canvas: &canvas)
        case .infographic:
            Self.drawn(seed, salt: 130_004, canvas: &canvas, Self.infographic(seed:random:canvas:))
        case .comic:
            Self.drawn(seed, salt: 130_005, canvas: &canvas, Self.comic(seed:random:canvas:))
        case .billboard:
            Self.drawn(seed, salt: 140_001, canvas: &canvas, Self.billboard(seed:random:canvas:))
        case .lockscreen:
            Self.drawn(seed, salt: 140_002, canvas: &canvas, Self.lockscreen(seed:random:canvas:))
        case .backlit:
            Self.backlit(seed: seed, canvas: &canvas)
        case .listing:
            Self.drawn(seed, salt: 140_004, canvas: &canvas, Self.listing(seed:random:canvas:))
        case .minimal:
            Self.drawn(seed, salt: 140_005, canvas: &canvas, Self.minimal(seed:random:canvas:))
        case .scoreboard:
            Self.drawn(seed, salt: 150_001, canvas: &canvas, Self.scoreboard(seed:random:canvas:))
        case .planner:
            Self.drawn(seed, salt: 150_002, canvas: &canvas, Self.planner(seed:random:canvas:))
        case .callgrid:
            Self.drawn(seed, salt: 150_003, canvas: &canvas, Self.callgrid(seed:random:canvas:))
        case .beforeafter:
            Self.drawn(seed, salt: 150_004, canvas: &canvas, Self.beforeAfter(seed:random:canvas:))
        case .vignette:
            Self.vignette(seed: seed, canvas: &canvas)
        case .polaroid:
            Self.drawn(seed, salt: 160_001, canvas: &canvas, Self.polaroid(seed:random:canvas:))
        case .story:
            Self.drawn(seed, salt: 160_002, canvas: &canvas, Self.story(seed:random:canvas:))
        case .recipe:
            Self.drawn(seed, salt: 160_003, canvas: &canvas, Self.recipe(seed:random:canvas:))
        case .badge:
            Self.drawn(seed, salt: 160_004, canvas: &canvas, Self.badge(seed:random:canvas:))
        case .stamp:
            Self.drawn(seed, salt: 160_005, canvas: &canvas, Self.stamp(seed:random:canvas:))
        case .magazine:
            Self.drawn(seed, salt: 170_001, canvas: &canvas, Self.magazine(seed:random:canvas:))
        case .homescreen:
            Self.drawn(seed, salt: 170_002, canvas: &canvas, Self.homescreen(seed:random:canvas:))
        case .placecard:
            Self.drawn(seed, salt: 170_003, canvas: &canvas, Self.placecard(seed:random:canvas:))
        case .stub:
            Self.drawn(seed, salt: 170_004, canvas: &canvas, Self.stub(seed:random:canvas:))
        case .nightcam:
            Self.drawn(seed, salt: 170_005, canvas: &canvas, Self.nightcam(seed:random:canvas:))
        case .haze:
            Self.haze(seed: seed, canvas: &canvas)
        case .appstore:
            Self.drawn(seed, salt: 180_002, canvas: &canvas, Self.appstore(seed:random:canvas:))
        case .gallery:
            Self.drawn(seed, salt: 180_003, canvas: &canvas, Self.gallery(seed:random:canvas:))
        case .frontpage:
            Self.drawn(seed, salt: 180_004, canvas: &canvas, Self.frontpage(seed:random:canvas:))
        case .thumbnail:
            Self.drawn(seed, salt: 180_005, canvas: &canvas, Self.thumbnail(seed:random:canvas:))
        case .stage:
            let top = random.colour()
            let bottom = random.colour()
            canvas.gradient(from: top, to: bottom)
            let light = random.colour()
            for disc in 0..<7 {
                // The spotlights' places are the composition's; only their colour is the member's.
                let x = Double((disc * 97 + 53) % 544) / 544
                let y = Double((disc * 61 + 29) % 340) / 680
                canvas.disc(x: x, y: y, radius: Double(30 + (disc * 17) % 60) / 680, colour: light)
            }
            let figure = random.colour()
            let offset = random.unit() * 0.2 - 0.1
            canvas.disc(x: 0.5 + offset, y: 0.42, radius: 0.09, colour: figure)
            canvas.rectangle(x: 0.38 + offset, y: 0.5, width: 0.24, height: 0.25, colour: figure)
            canvas.rectangle(x: 0.25, y: 0.72, width: 0.5, height: 0.28, colour: random.colour())
        case .tint:
            let tint = random.colour()
            let split = 0.3 + random.unit() * 0.4
            canvas.gradient(from: tint, to: TestJPEG.Colour(250, 250, 250), rows: 0...split)
            canvas.gradient(from: random.colour(), to: tint, rows: split...1)
            let shapes = random.colour()
            for shape in 0..<6 {
                let size = 0.04 + random.unit() * 0.08
                canvas.disc(x: (Double(shape) + 0.5) / 6, y: split, radius: size, colour: shapes)
            }
        }
        return canvas.pixels
    }

    private static func quote(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let grounds: [[UInt8]] = [[245, 236, 220], [28, 36, 64], [196, 60, 70]]
        let ground = grounds[seed % 3]
        let ink: [UInt8] = seed % 3 == 0 ? [30, 30, 36] : [250, 250, 250]
        let accent = TestJPEG.Colour(230, 170, 40)
        canvas.rectangle(
            x: 0,
            y: 0,
            width: 1,
            height: 1,
            colour: TestJPEG.Colour(ground[0], ground[1], ground[2])
        )
        canvas.rectangle(x: 0.08, y: 0.08, width: 0.25, height: 0.02, colour: accent)
        canvas.disc(x: 0.13, y: 0.17, radius: 0.035, colour: accent)
        canvas.disc(x: 0.22, y: 0.17, radius: 0.035, colour: accent)
        let words = [
            "the", "stage", "is", "where", "we", "found", "each", "other", "and", "you", "were", "always", "there",
            "thank", "for", "every", "night", "light", "song", "dream", "never", "stop", "shining", "together",
        ]
        let lines = (0..<(2 + Int(random.next() % 4))).map { _ in
            (0..<(2 + Int(random.next() % 3))).map { _ in words[Int(random.next() % UInt64(words.count))] }
                .joined(separator: " ")
        }
        let (left, top) = (canvas.width / 12, canvas.height * 26 / 100)
        let (w, h) = (canvas.width - 2 * left, canvas.height * 52 / 100)
        let names = ["— a fan", "— the leader, live in seoul", "— from the album notes", "— said on stage"]
        let attribution = [names[seed % names.count]]
        for (lines, top, h, size) in [
            (lines, top, h, canvas.width * 8 / 100),
            (attribution, canvas.height * 80 / 100, canvas.height / 10, canvas.width * 4 / 100),
        ] {
            guard
                let rgbx = FontStack.graphic(
                    lines,
                    width: w,
                    height: h,
                    pixelSize: max(8, size),
                    ink: ink,
                    paper: ground
                )
            else { continue }
            canvas.paste(rgbx, channels: 4, width: w, height: h, left: left, top: top)
        }
    }

    private static func product(seed: Int, canvas: inout Canvas) {
        canvas.gradient(from: TestJPEG.Colour(236, 236, 232), to: TestJPEG.Colour(206, 204, 200))
        let shape = seed % 3
        let hue = Double(seed / 3 % 10) * 36
        let angle = [0.0, -20, 20][seed / 30 % 3] * Double.pi / 180
        let body = hsv(hue: hue, saturation: 0.75, value: 0.8)
        let dark = hsv(hue: hue, saturation: 0.8, value: 0.45)
        canvas.ellipse(x: 0.5, y: 0.8, radiusX: 0.26, radiusY: 0.05, angle: 0, colour: TestJPEG.Colour(150, 148, 144))
        // Each part in the object's own coordinates (units of the shorter side, y down, centred on the object),
        // turned by `angle` about the object's centre.
        let parts: [(x: Double, y: Double, halfWidth: Double, halfHeight: Double, round: Bool, colour: TestJPEG.Colour)]
        switch shape {
        case 0:  // a bottle: body, shoulder, neck, cap
            parts = [
                (0, 0.08, 0.11, 0.2, false, body), (0, -0.13, 0.08, 0.05, true, body),
                (0, -0.2, 0.035, 0.06, false, body), (0, -0.27, 0.04, 0.025, false, dark),
                (0, 0.06, 0.11, 0.06, false, TestJPEG.Colour(245, 245, 240)),
            ]
        case 1:  // a mug: body, handle, rim
            parts = [
                (0.15, 0.02, 0.07, 0.08, true, dark), (0.15, 0.02, 0.035, 0.045, true, TestJPEG.Colour(226, 226, 222)),
                (0, 0.02, 0.15, 0.16, false, body), (0, -0.14, 0.15, 0.015, false, dark),
            ]
        default:  // a box: front, lid, label
            parts = [
                (0, 0.03, 0.18, 0.15, false, body), (0, -0.13, 0.19, 0.03, false, dark),
                (0, 0.04, 0.1, 0.05, false, TestJPEG.Colour(250, 248, 240)),
            ]
        }
        for part in parts {
            let (cosine, sine) = (cos(angle), sin(angle))
            let x =
                0.5 + (part.x * cosine - part.y * sine) * Double(min(canvas.width, canvas.height))
                / Double(canvas.width)
            let y =
                0.5 + (part.x * sine + part.y * cosine) * Double(min(canvas.width, canvas.height))
                / Double(canvas.height)
            if part.round {
                canvas.ellipse(
                    x: x,
                    y: y,
                    radiusX: part.halfWidth,
                    radiusY: part.halfHeight,
                    angle: angle,
                    colour: part.colour
                )
            } else {
                canvas.box(
                    x: x,
                    y: y,
                    halfWidth: part.halfWidth,
                    halfHeight: part.halfHeight,
                    angle: angle,
                    colour: part.colour
                )
            }
        }
    }

    private static func collage(seed: Int, canvas: inout Canvas) {
        let tiles = 9
        let order: [Int]
        if seed % 2 == 0 {
            // Ordered choice number `seed / 2 × 101 mod 3024` of four of the nine tiles: distinct for 3024 members.
            var number = seed / 2 * 101 % (9 * 8 * 7 * 6)
            var left = Array(0..<tiles)
            var chosen: [Int] = []
            for remaining in [9, 8, 7, 6] {
                chosen.append(left.remove(at: number % remaining))
                number /= remaining
            }
            order = chosen
        } else {
            var random = SeededRandom(seed: UInt64(seed) &+ 7_777)
            var all = Array(0..<tiles)
            for index in stride(from: tiles - 1, to: 0, by: -1) {
                all.swapAt(index, Int(random.next() % UInt64(index + 1)))
            }
            order = all
        }
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(250, 250, 250))
        let grid = seed % 2 == 0 ? 2 : 3
        let gutter = 0.015
        let cell = (1 - gutter * Double(grid + 1)) / Double(grid)
        for (slot, tile) in order.enumerated() {
            var random = SeededRandom(seed: UInt64(tile) &+ 4_242)
            let (left, top) = (
                gutter + Double(slot % grid) * (cell + gutter), gutter + Double(slot / grid) * (cell + gutter)
            )
            photoTile(left: left, top: top, cell: cell, radius: 0.22, band: 0.12, random: &random, canvas: &canvas)
        }
    }

    /// One square tile of a photo grid at (`left`, `top`), `cell` a side: a gradient between two colours, a disc of
    /// `radius` cells somewhere in its middle, and a band `band` cells high at some height, colours from `random`.
    private static func photoTile(
        left: Double,
        top: Double,
        cell: Double,
        radius: Double,
        band: Double,
        random: inout SeededRandom,
        canvas: inout Canvas
    ) {
        canvas.gradient(
            from: random.colour(),
            to: random.colour(),
            rows: top...(top + cell),
            columns: left...(left + cell)
        )
        let scale = Double(min(canvas.width, canvas.height))
        canvas.ellipse(
            x: left + (0.25 + random.unit() * 0.5) * cell,
            y: top + (0.25 + random.unit() * 0.5) * cell,
            radiusX: cell * radius * Double(canvas.width) / scale,
            radiusY: cell * radius * Double(canvas.height) / scale,
            angle: 0,
            colour: random.colour()
        )
        canvas.rectangle(
            x: left + cell * 0.1,
            y: top + cell * (0.1 + random.unit() * 0.7),
            width: cell * 0.8,
            height: cell * band,
            colour: random.colour()
        )
    }

    private static func spotlight(random: inout SeededRandom, canvas: inout Canvas) {
        canvas.gradient(from: TestJPEG.Colour(10, 8, 14), to: TestJPEG.Colour(22, 18, 26), rows: 0...0.7)
        canvas.gradient(from: TestJPEG.Colour(34, 28, 30), to: TestJPEG.Colour(52, 44, 42), rows: 0.7...1)
        let beams = 3 + Int(random.next() % 3)
        for _ in 0..<beams {
            let top = 0.1 + random.unit() * 0.8
            let floor = min(0.92, max(0.08, top + random.unit() * 0.4 - 0.2))
            let colour = hsv(hue: random.unit() * 360, saturation: 0.5 + random.unit() * 0.4, value: 0.9)
            let strength = 0.25 + random.unit() * 0.2
            canvas.beam(top: top, floor: floor, colour: colour, strength: strength)
        }
    }

    /// Seeded words of `list`: `count` lines of `words` words each (a closed range), joined by spaces.
    private static func lines(
        _ count: Int,
        words: ClosedRange<Int>,
        from list: [String],
        random: inout SeededRandom
    ) -> [String] {
        (0..<count).map { _ in
            (0..<(words.lowerBound + Int(random.next() % UInt64(words.count))))
                .map { _ in list[Int(random.next() % UInt64(list.count))] }
                .joined(separator: " ")
        }
    }

    private static func meme(seed: Int, canvas: inout Canvas) {
        scene(seed: seed % 2 == 0 ? 0 : seed, canvas: &canvas)
        var random = SeededRandom(scrambling: (seed % 2 == 0 ? seed : 1) &+ 31_337)
        let words = [
            "when", "you", "finally", "get", "tickets", "me", "waiting", "for", "the", "comeback", "nobody",
            "literally",
            "every", "fan", "at", "concert", "my", "face", "after", "teaser", "drops", "again", "monday", "mood",
        ]
        let top = lines(1 + Int(random.next() % 2), words: 2...4, from: words, random: &random)
        let bottom = lines(1 + Int(random.next() % 2), words: 2...4, from: words, random: &random)
        let size = canvas.width * 9 / 100
        let h = size * 3
        canvas.overlay(top, left: canvas.width / 20, top: canvas.height / 40, height: h, pixelSize: size)
        canvas.overlay(
            bottom,
            left: canvas.width / 20,
            top: canvas.height - h - canvas.height / 40,
            height: h,
            pixelSize: size
        )
    }

    /// A photo-like outdoor scene: a sky and a ground of seeded colours split at a seeded horizon, a sun, trees
    /// and rocks along the horizon, and grain.
    private static func scene(seed: Int, canvas: inout Canvas) {
        var random = SeededRandom(scrambling: seed &+ 9_000)
        let horizon = 0.45 + random.unit() * 0.25
        canvas.gradient(from: random.colour(), to: random.colour(), rows: 0...horizon)
        canvas.gradient(from: random.colour(), to: random.colour(), rows: horizon...1)
        canvas.disc(
            x: 0.15 + random.unit() * 0.7,
            y: horizon * (0.2 + random.unit() * 0.5),
            radius: 0.05 + random.unit() * 0.06,
            colour: hsv(hue: 30 + random.unit() * 30, saturation: 0.4 + random.unit() * 0.5, value: 1)
        )
        for _ in 0..<(6 + Int(random.next() % 6)) {
            let radius = 0.03 + random.unit() * 0.08
            canvas.ellipse(
                x: random.unit(),
                y: horizon - radius * random.unit(),
                radiusX: radius * (0.5 + random.unit()),
                radiusY: radius * (0.8 + random.unit()),
                angle: 0,
                colour: random.colour()
            )
        }
        for index in canvas.pixels.indices {
            let grain = Int(random.next() % 25) - 12
            canvas.pixels[index] = UInt8(max(0, min(255, Int(canvas.pixels[index]) + grain)))
        }
    }

    private static func post(random: inout SeededRandom, canvas: inout Canvas) {
        let paper: [UInt8] = [255, 255, 255]
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(255, 255, 255))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 0.08, colour: TestJPEG.Colour(246, 247, 249))
        canvas.rectangle(x: 0, y: 0.08, width: 1, height: 0.003, colour: TestJPEG.Colour(220, 224, 228))
        canvas.rectangle(x: 0.05, y: 0.035, width: 0.05, height: 0.01, colour: TestJPEG.Colour(20, 24, 28))
        canvas.rectangle(x: 0.4, y: 0.03, width: 0.2, height: 0.02, colour: TestJPEG.Colour(20, 24, 28))
        let avatar = hsv(hue: random.unit() * 360, saturation: 0.5 + random.unit() * 0.4, value: 0.8)
        canvas.disc(x: 0.12, y: 0.15, radius: 0.055, colour: avatar)
        canvas.disc(
            x: 0.12,
            y: 0.14,
            radius: 0.02,
            colour: hsv(hue: random.unit() * 360, saturation: 0.3, value: 0.95)
        )
        canvas.rectangle(
            x: 0.22,
            y: 0.12,
            width: 0.15 + random.unit() * 0.3,
            height: 0.022,
            colour: TestJPEG.Colour(15, 20, 25)
        )
        canvas.rectangle(
            x: 0.22,
            y: 0.16,
            width: 0.1 + random.unit() * 0.2,
            height: 0.016,
            colour: TestJPEG.Colour(120, 130, 140)
        )
        let words = [
            "so", "happy", "to", "share", "the", "new", "album", "is", "out", "now", "thank", "you", "all", "for",
            "waiting", "see", "you", "at", "the", "show", "tonight", "link", "in", "bio", "love", "this", "crew",
        ]
        let text = lines(2 + Int(random.next() % 4), words: 3...5, from: words, random: &random)
        let (left, top) = (canvas.width / 20, canvas.height * 22 / 100)
        let (w, h) = (canvas.width - 2 * left, canvas.height * 46 / 100)
        if let rgbx = FontStack.graphic(
            text,
            width: w,
            height: h,
            pixelSize: max(8, canvas.width * 6 / 100),
            ink: [15, 20, 25],
            paper: paper
        ) {
            canvas.paste(rgbx, channels: 4, width: w, height: h, left: left, top: top)
        }
        canvas.rectangle(x: 0.05, y: 0.72, width: 0.3, height: 0.016, colour: TestJPEG.Colour(120, 130, 140))
        canvas.rectangle(x: 0, y: 0.78, width: 1, height: 0.003, colour: TestJPEG.Colour(220, 224, 228))
        for action in 0..<4 {
            let x = 0.12 + Double(action) * 0.25
            canvas.disc(x: x, y: 0.85, radius: 0.022, colour: TestJPEG.Colour(110, 118, 125))
            canvas.disc(x: x, y: 0.85, radius: 0.013, colour: TestJPEG.Colour(255, 255, 255))
        }
    }

    private static func chart(random: inout SeededRandom, canvas: inout Canvas) {
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(252, 252, 250))
        canvas.rectangle(x: 0.1, y: 0.05, width: 0.5, height: 0.035, colour: TestJPEG.Colour(40, 40, 48))
        canvas.rectangle(x: 0.1, y: 0.1, width: 0.3, height: 0.02, colour: TestJPEG.Colour(140, 140, 150))
        let (floor, ceiling) = (0.85, 0.2)
        for line in 0...4 {
            let y = floor - Double(line) * (floor - ceiling) / 4
            canvas.rectangle(x: 0.12, y: y, width: 0.82, height: 0.002, colour: TestJPEG.Colour(220, 220, 226))
            canvas.rectangle(x: 0.04, y: y - 0.008, width: 0.05, height: 0.016, colour: TestJPEG.Colour(150, 150, 160))
        }
        canvas.rectangle(
            x: 0.12,
            y: ceiling,
            width: 0.004,
            height: floor - ceiling,
            colour: TestJPEG.Colour(60, 60, 70)
        )
        canvas.rectangle(x: 0.12, y: floor, width: 0.82, height: 0.004, colour: TestJPEG.Colour(60, 60, 70))
        for bar in 0..<8 {
            let share = 0.1 + random.unit() * 0.9
            let top = floor - share * (floor - ceiling)
            let x = 0.15 + Double(bar) * 0.1
            canvas.rectangle(x: x, y: top, width: 0.07, height: floor - top, colour: TestJPEG.Colour(52, 120, 220))
            canvas.rectangle(
                x: x + 0.01,
                y: floor + 0.02,
                width: 0.05,
                height: 0.015,
                colour: TestJPEG.Colour(150, 150, 160)
            )
        }
    }

    private static func map(random: inout SeededRandom, canvas: inout Canvas) {
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(242, 238, 228))
        for _ in 0..<(2 + Int(random.next() % 3)) {
            canvas.rectangle(
                x: random.unit() * 0.8,
                y: random.unit() * 0.8,
                width: 0.08 + random.unit() * 0.15,
                height: 0.06 + random.unit() * 0.12,
                colour: TestJPEG.Colour(200, 230, 190)
            )
        }
        // A river: a chain of discs along a seeded wave.
        let (start, bend, phase) = (random.unit(), 0.1 + random.unit() * 0.2, random.unit() * 6.28)
        for step in 0...200 {
            let y = Double(step) / 200
            canvas.disc(
                x: start * 0.6 + 0.2 + bend * sin(phase + y * 5),
                y: y,
                radius: 0.035,
                colour: TestJPEG.Colour(170, 210, 240)
            )
        }
        let white = TestJPEG.Colour(255, 255, 255)
        let edge = TestJPEG.Colour(214, 208, 196)
        var x = random.unit() * 0.12
        while x < 1 {
            canvas.rectangle(x: x - 0.002, y: 0, width: 0.016, height: 1, colour: edge)
            canvas.rectangle(x: x, y: 0, width: 0.012, height: 1, colour: white)
            x += 0.08 + random.unit() * 0.1
        }
        var y = random.unit() * 0.12
        while y < 1 {
            canvas.rectangle(x: 0, y: y - 0.002, width: 1, height: 0.014, colour: edge)
            canvas.rectangle(x: 0, y: y, width: 1, height: 0.01, colour: white)
            y += 0.07 + random.unit() * 0.09
        }
        let main = 0.2 + random.unit() * 0.6
        canvas.rectangle(x: 0, y: main, width: 1, height: 0.025, colour: TestJPEG.Colour(250, 210, 120))
        let pin = (x: 0.15 + random.unit() * 0.7, y: 0.15 + random.unit() * 0.7)
        canvas.disc(x: pin.x, y: pin.y, radius: 0.035, colour: TestJPEG.Colour(220, 50, 50))
        canvas.disc(x: pin.x, y: pin.y, radius: 0.013, colour: white)
    }

    /// `lines` drawn with the project's font stack in `ink` on `paper` in a box at `(x, y)` (fractions of the
    /// width and height) `w`×`h` (fractions), at a pixel size of `size` × the width.
    private static func write(
        _ lines: [String],
        x: Double,
        y: Double,
        w: Double,
        h: Double,
        size: Double,
        ink: TestJPEG.Colour,
        paper: TestJPEG.Colour,
        canvas: inout Canvas
    ) {
        let (left, top) = (Int(x * Double(canvas.width)), Int(y * Double(canvas.height)))
        let width = min(canvas.width - left, Int(w * Double(canvas.width)))
        let height = min(canvas.height - top, Int(h * Double(canvas.height)))
        guard width > 0, height > 0,
            let rgbx = FontStack.graphic(
                lines,
                width: width,
                height: height,
                pixelSize: max(6, Int(size * Double(canvas.width))),
                ink: [ink.red, ink.green, ink.blue],
                paper: [paper.red, paper.green, paper.blue]
            )
        else { return }
        canvas.paste(rgbx, channels: 4, width: width, height: height, left: left, top: top)
    }

    private static func ticket(random: inout SeededRandom, canvas: inout Canvas) {
        let ground = TestJPEG.Colour(34, 36, 48)
        let body = TestJPEG.Colour(242, 152, 52)
        let ink = TestJPEG.Colour(30, 24, 20)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        canvas.rectangle(x: 0.06, y: 0.18, width: 0.88, height: 0.64, colour: body)
        canvas.rectangle(x: 0.06, y: 0.18, width: 0.88, height: 0.05, colour: TestJPEG.Colour(200, 60, 60))
        for step in 0..<18 {
            canvas.disc(x: 0.08 + Double(step) * 0.05, y: 0.62, radius: 0.008, colour: ground)
        }
        let names = [
            "the", "midnight", "echo", "violet", "parade", "neon", "harbour", "static", "bloom", "velvet", "arcade",
            "silver", "lines", "paper", "moons", "wild", "coast", "saturday", "tigers", "glass",
        ]
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let venues = ["olympic hall", "the roundhouse", "arena north", "city theatre", "pier stage", "dome"]
        let artist = lines(1 + Int(random.next() % 2), words: 1...2, from: names, random: &random)
        let date =
            "\(1 + random.next() % 28) \(months[Int(random.next() % 12)]) 20\(26 + random.next() % 3)  "
            + "doors \(6 + random.next() % 3) pm"
        let venue = venues[Int(random.next() % UInt64(venues.count))]
        write(artist, x: 0.08, y: 0.25, w: 0.84, h: 0.2, size: 0.08, ink: ink, paper: body, canvas: &canvas)
        write([date, venue], x: 0.08, y: 0.45, w: 0.84, h: 0.15, size: 0.045, ink: ink, paper: body, canvas: &canvas)
        let seat = "row \(1 + random.next() % 30)  seat \(1 + random.next() % 40)"
        write([seat], x: 0.08, y: 0.64, w: 0.5, h: 0.1, size: 0.045, ink: ink, paper: body, canvas: &canvas)
        canvas.rectangle(x: 0.6, y: 0.65, width: 0.3, height: 0.14, colour: TestJPEG.Colour(250, 250, 250))
        var x = 0.615
        while x < 0.88 {
            let bar = 0.003 + Double(random.next() % 4) * 0.003
            canvas.rectangle(x: x, y: 0.66, width: bar, height: 0.12, colour: TestJPEG.Colour(10, 10, 10))
            x += bar + 0.003 + Double(random.next() % 3) * 0.003
        }
    }

    private static func slide(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let paper = TestJPEG.Colour(255, 255, 255)
        let navy = TestJPEG.Colour(24, 44, 90)
        let ink = TestJPEG.Colour(40, 40, 48)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 0.16, colour: navy)
        canvas.rectangle(x: 0, y: 0.16, width: 1, height: 0.008, colour: TestJPEG.Colour(230, 160, 30))
        let words = [
            "quarterly", "results", "growth", "plan", "team", "roadmap", "customers", "launch", "review", "budget",
            "next", "steps", "market", "goals", "risks", "hiring", "design", "update", "timeline", "metrics", "q3",
        ]
        let title = lines(1, words: 2...3, from: words, random: &random)
        write(
            title,
            x: 0.05,
            y: 0.02,
            w: 0.9,
            h: 0.13,
            size: 0.07,
            ink: TestJPEG.Colour(250, 250, 250),
            paper: navy,
            canvas: &canvas
        )
        let count = 3 + Int(random.next() % 3)
        let bullets = lines(count, words: 2...4, from: words, random: &random)
        for (index, line) in bullets.enumerated() {
            let y = 0.24 + Double(index) * 0.12
            canvas.rectangle(x: 0.07, y: y + 0.035, width: 0.025, height: 0.02, colour: navy)
            write([line], x: 0.12, y: y, w: 0.83, h: 0.1, size: 0.055, ink: ink, paper: paper, canvas: &canvas)
        }
        canvas.rectangle(x: 0.05, y: 0.9, width: 0.9, height: 0.003, colour: TestJPEG.Colour(200, 200, 206))
        canvas.rectangle(x: 0.05, y: 0.92, width: 0.12, height: 0.04, colour: navy)
        write(["\(seed + 2)"], x: 0.84, y: 0.91, w: 0.14, h: 0.07, size: 0.04, ink: ink, paper: paper, canvas: &canvas)
    }

    private static func weather(random: inout SeededRandom, canvas: inout Canvas) {
        let sky = TestJPEG.Colour(70, 140, 220)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: sky)
        let white = TestJPEG.Colour(250, 250, 252)
        let cities = [
            "lisbon", "oslo", "seoul", "lima", "cairo", "quito", "perth", "riga", "kyoto", "dakar", "porto", "bern",
            "hanoi", "tunis", "accra", "sofia",
        ]
        let city = cities[Int(random.next() % UInt64(cities.count))]
        write([city], x: 0.06, y: 0.04, w: 0.6, h: 0.1, size: 0.07, ink: white, paper: sky, canvas: &canvas)
        /// A sun, a cloud or rain at `(x, y)` of `size` (of the shorter side).
        func icon(_ kind: Int, x: Double, y: Double, size: Double) {
            if kind == 0 {
                canvas.disc(x: x, y: y, radius: size, colour: TestJPEG.Colour(255, 210, 60))
                return
            }
            for (dx, dy, r) in [(-0.6, 0.1, 0.55), (0.0, -0.15, 0.75), (0.6, 0.1, 0.55)] {
                canvas.disc(x: x + dx * size, y: y + dy * size, radius: r * size, colour: white)
            }
            if kind == 2 {
                for drop in 0..<3 {
                    canvas.rectangle(
                        x: x - size * 0.6 + Double(drop) * size * 0.5,
                        y: y + size * 0.5,
                        width: size * 0.12,
                        height: size * 0.7,
                        colour: TestJPEG.Colour(40, 80, 200)
                    )
                }
            }
        }
        icon(Int(random.next() % 3), x: 0.7, y: 0.27, size: 0.12)
        let temperature = "\(Int(random.next() % 40) - 5)"
        write([temperature], x: 0.06, y: 0.16, w: 0.45, h: 0.2, size: 0.15, ink: white, paper: sky, canvas: &canvas)
        let panel = TestJPEG.Colour(40, 90, 170)
        canvas.rectangle(x: 0.04, y: 0.6, width: 0.92, height: 0.34, colour: panel)
        let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        let first = Int(random.next() % 7)
        for day in 0..<5 {
            let x = 0.06 + Double(day) * 0.18
            write(
                [days[(first + day) % 7]],
                x: x,
                y: 0.61,
                w: 0.16,
                h: 0.08,
                size: 0.04,
                ink: white,
                paper: panel,
                canvas: &canvas
            )
            icon(Int(random.next() % 3), x: x + 0.08, y: 0.75, size: 0.04)
            write(
                ["\(Int(random.next() % 40) - 5)"],
                x: x,
                y: 0.83,
                w: 0.16,
                h: 0.09,
                size: 0.05,
                ink: white,
                paper: panel,
                canvas: &canvas
            )
        }
    }

    private static func calendar(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        scene(seed: 4_242, canvas: &canvas)
        let paper = TestJPEG.Colour(252, 250, 245)
        let ink = TestJPEG.Colour(40, 40, 44)
        canvas.rectangle(x: 0, y: 0.42, width: 1, height: 0.58, colour: paper)
        let months = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]
        let month = seed % 12
        let year = 2026 + seed / 12
        let length = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]
        let start = (seed * 3 + seed / 12) % 7
        write(
            ["\(months[month]) \(year)"],
            x: 0.05,
            y: 0.43,
            w: 0.9,
            h: 0.09,
            size: 0.065,
            ink: TestJPEG.Colour(190, 40, 40),
            paper: paper,
            canvas: &canvas
        )
        let ringed = Int(random.next() % UInt64(length))
        for day in 0..<length {
            let cell = start + day
            let (column, row) = (cell % 7, cell / 7)
            let (x, y) = (0.04 + Double(column) * 0.132, 0.54 + Double(row) * 0.075)
            var ground = paper
            if day == ringed {
                ground = TestJPEG.Colour(250, 220, 120)
                canvas.rectangle(x: x, y: y, width: 0.12, height: 0.07, colour: ground)
            }
            write(["\(day + 1)"], x: x, y: y, w: 0.12, h: 0.07, size: 0.04, ink: ink, paper: ground, canvas: &canvas)
        }
    }

    private static func scorecard(random: inout SeededRandom, canvas: inout Canvas) {
        let card = TestJPEG.Colour(18, 70, 44)
        let white = TestJPEG.Colour(245, 245, 240)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: card)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 0.1, colour: TestJPEG.Colour(10, 40, 26))
        write(
            ["premier league  matchday"],
            x: 0.05,
            y: 0.02,
            w: 0.9,
            h: 0.07,
            size: 0.04,
            ink: white,
            paper: TestJPEG.Colour(10, 40, 26),
            canvas: &canvas
        )
        let teams = [
            "rovers", "united", "city", "athletic", "wanderers", "albion", "county", "harriers", "rangers", "town",
            "villa", "forest", "orient", "dynamo", "sporting", "olympic",
        ]
        let home = Int(random.next() % UInt64(teams.count))
        let away = (home + 1 + Int(random.next() % UInt64(teams.count - 1))) % teams.count
        for (index, team) in [home, away].enumerated() {
            let x = index == 0 ? 0.25 : 0.75
            let badge = hsv(hue: random.unit() * 360, saturation: 0.7, value: 0.9)
            canvas.disc(x: x, y: 0.3, radius: 0.14, colour: white)
            canvas.disc(x: x, y: 0.3, radius: 0.12, colour: badge)
            let initial = String(teams[team].prefix(2))
            write(
                [initial],
                x: x - 0.1,
                y: 0.25,
                w: 0.2,
                h: 0.1,
                size: 0.06,
                ink: white,
                paper: badge,
                canvas: &canvas
            )
            write(
                [teams[team]],
                x: x - 0.22,
                y: 0.46,
                w: 0.44,
                h: 0.08,
                size: 0.05,
                ink: white,
                paper: card,
                canvas: &canvas
            )
        }
        let score = "\(random.next() % 6) - \(random.next() % 6)"
        write([score], x: 0.25, y: 0.56, w: 0.5, h: 0.2, size: 0.15, ink: white, paper: card, canvas: &canvas)
        let minute = "full time  \(60 + random.next() % 40)'"
        write([minute], x: 0.25, y: 0.8, w: 0.5, h: 0.08, size: 0.04, ink: white, paper: card, canvas: &canvas)
    }

    private static func receipt(random: inout SeededRandom, canvas: inout Canvas) {
        let counter = TestJPEG.Colour(150, 150, 156)
        let paper = TestJPEG.Colour(252, 252, 248)
        let ink = TestJPEG.Colour(30, 30, 34)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: counter)
        canvas.rectangle(x: 0.15, y: 0.03, width: 0.7, height: 0.94, colour: paper)
        write(["corner deli"], x: 0.2, y: 0.04, w: 0.6, h: 0.1, size: 0.06, ink: ink, paper: paper, canvas: &canvas)
        let items = [
            "coffee", "bagel", "milk", "eggs", "bread", "apples", "cheese", "juice", "tea", "soup", "salad", "rice",
            "pasta", "butter", "jam", "honey", "water", "olives", "lemons", "cake",
        ]
        let count = 6 + Int(random.next() % 5)
        var total = 0
        for line in 0..<count {
            let cents = 50 + Int(random.next() % 950)
            total += cents
            let item = items[Int(random.next() % UInt64(items.count))]
            let y = 0.15 + Double(line) * 0.055
            write([item], x: 0.19, y: y, w: 0.4, h: 0.05, size: 0.035, ink: ink, paper: paper, canvas: &canvas)
            let price = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
            write([price], x: 0.62, y: y, w: 0.2, h: 0.05, size: 0.035, ink: ink, paper: paper, canvas: &canvas)
        }
        canvas.rectangle(x: 0.19, y: 0.72, width: 0.62, height: 0.003, colour: ink)
        let sum = "total  \(total / 100).\(total % 100 < 10 ? "0" : "")\(total % 100)"
        write([sum], x: 0.19, y: 0.73, w: 0.62, h: 0.07, size: 0.05, ink: ink, paper: paper, canvas: &canvas)
        var x = 0.22
        while x < 0.78 {
            let bar = 0.003 + Double(random.next() % 4) * 0.003
            canvas.rectangle(x: x, y: 0.84, width: bar, height: 0.09, colour: ink)
            x += bar + 0.003 + Double(random.next() % 3) * 0.003
        }
    }

    private static func lyrics(random: inout SeededRandom, canvas: inout Canvas) {
        scene(seed: 5_151, canvas: &canvas)
        for index in canvas.pixels.indices { canvas.pixels[index] /= 3 }
        let words = [
            "i", "keep", "on", "running", "through", "the", "night", "your", "light", "falls", "like", "rain", "we",
            "were", "young", "and", "never", "afraid", "hold", "me", "closer", "till", "morning", "comes", "home",
        ]
        let count = 2 + Int(random.next() % 3)
        let verse = lines(count, words: 2...4, from: words, random: &random)
        let white = TestJPEG.Colour(250, 248, 240)
        for (index, line) in verse.enumerated() {
            canvas.overlay(
                [line],
                left: canvas.width / 12,
                top: canvas.height * (30 + index * 11) / 100,
                height: canvas.height / 10,
                pixelSize: canvas.width * 6 / 100
            )
        }
        let title = lines(1, words: 1...3, from: words, random: &random)
        canvas.rectangle(x: 0.3, y: 0.86, width: 0.4, height: 0.003, colour: white)
        canvas.overlay(
            title,
            left: canvas.width / 4,
            top: canvas.height * 88 / 100,
            height: canvas.height / 12,
            pixelSize: canvas.width * 4 / 100
        )
    }

    private static func leaderboard(random: inout SeededRandom, canvas: inout Canvas) {
        let paper = TestJPEG.Colour(246, 246, 250)
        let shade = TestJPEG.Colour(226, 230, 240)
        let ink = TestJPEG.Colour(30, 34, 50)
        let header = TestJPEG.Colour(120, 40, 160)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 0.1, colour: header)
        write(
            ["weekly leaderboard"],
            x: 0.05,
            y: 0.02,
            w: 0.9,
            h: 0.07,
            size: 0.055,
            ink: TestJPEG.Colour(250, 250, 250),
            paper: header,
            canvas: &canvas
        )
        let names = [
            "ana", "bo", "chen", "dara", "eli", "femi", "gus", "hana", "ivo", "jun", "kai", "lea", "mo", "nia",
            "oto", "pia", "quin", "rui", "sol", "tam", "uma", "vik", "wen", "yui",
        ]
        var points = 900 + Int(random.next() % 900)
        for row in 0..<10 {
            let y = 0.12 + Double(row) * 0.086
            let ground = row % 2 == 0 ? paper : shade
            canvas.rectangle(x: 0, y: y, width: 1, height: 0.086, colour: ground)
            let name =
                names[Int(random.next() % UInt64(names.count))] + " " + names[Int(random.next() % UInt64(names.count))]
            points -= Int(random.next() % 90)
            write(
                ["\(row + 1)"],
                x: 0.03,
                y: y + 0.01,
                w: 0.13,
                h: 0.07,
                size: 0.045,
                ink: ink,
                paper: ground,
                canvas: &canvas
            )
            write([name], x: 0.17, y: y + 0.01, w: 0.5, h: 0.07, size: 0.045, ink: ink, paper: ground, canvas: &canvas)
            write(
                ["\(points)"],
                x: 0.72,
                y: y + 0.01,
                w: 0.24,
                h: 0.07,
                size: 0.045,
                ink: ink,
                paper: ground,
                canvas: &canvas
            )
        }
    }

    private static func grid(seed: Int, canvas: inout Canvas) {
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(250, 250, 250))
        let gutter = 0.015
        let cell = (1 - gutter * 4) / 3
        let replaced = seed % 9
        for slot in 0..<9 {
            var random = SeededRandom(scrambling: slot == replaced ? 90_000 + seed : 91_000 + slot)
            let (left, top) = (gutter + Double(slot % 3) * (cell + gutter), gutter + Double(slot / 3) * (cell + gutter))
            photoTile(left: left, top: top, cell: cell, radius: 0.2, band: 0.1, random: &random, canvas: &canvas)
        }
    }

    private static func chess(random: inout SeededRandom, canvas: inout Canvas) {
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(110, 70, 40))
        let side = 0.9 * Double(min(canvas.width, canvas.height))
        let (boardW, boardH) = (side / Double(canvas.width), side / Double(canvas.height))
        let (left, top) = ((1 - boardW) / 2, (1 - boardH) / 2)
        let (cellW, cellH) = (boardW / 8, boardH / 8)
        for square in 0..<64 {
            let light = (square / 8 + square % 8) % 2 == 0
            canvas.rectangle(
                x: left + Double(square % 8) * cellW,
                y: top + Double(square / 8) * cellH,
                width: cellW,
                height: cellH,
                colour: light ? TestJPEG.Colour(238, 238, 210) : TestJPEG.Colour(118, 150, 86)
            )
        }
        // The opening position: pieces 0–5 (pawn, rook, knight, bishop, queen, king), white (8) or black (16).
        var board = [Int](repeating: -1, count: 64)
        let back = [1, 2, 3, 4, 5, 3, 2, 1]
        for file in 0..<8 {
            board[file] = 16 + back[file]
            board[8 + file] = 16
            board[48 + file] = 8
            board[56 + file] = 8 + back[file]
        }
        for _ in 0..<(2 + Int(random.next() % 4)) {
            let occupied = board.indices.filter { board[$0] >= 0 }
            let from = occupied[Int(random.next() % UInt64(occupied.count))]
            let empty = board.indices.filter { board[$0] < 0 }
            let to = empty[Int(random.next() % UInt64(empty.count))]
            board[to] = board[from]
            board[from] = -1
        }
        let unit = cellW * Double(canvas.width) / Double(min(canvas.width, canvas.height))
        for (square, piece) in board.enumerated() where piece >= 0 {
            let (x, y) = (left + (Double(square % 8) + 0.5) * cellW, top + (Double(square / 8) + 0.5) * cellH)
            let white = piece < 16
            let (fill, rim) =
                white
                ? (TestJPEG.Colour(250, 250, 246), TestJPEG.Colour(40, 40, 40))
                : (TestJPEG.Colour(30, 30, 34), TestJPEG.Colour(200, 200, 200))
            let kind = piece % 8
            let size = [0.2, 0.3, 0.3, 0.3, 0.36, 0.38][kind] * unit
            canvas.ellipse(x: x, y: y + 0.25 * cellH, radiusX: size * 1.1, radiusY: size * 0.35, angle: 0, colour: rim)
            if kind == 1 || kind == 5 {
                canvas.box(x: x, y: y, halfWidth: size * 0.7 + 0.01, halfHeight: size + 0.01, angle: 0, colour: rim)
                canvas.box(x: x, y: y, halfWidth: size * 0.7, halfHeight: size, angle: 0, colour: fill)
            } else {
                let angle = kind == 2 ? 0.6 : 0
                canvas.ellipse(
                    x: x,
                    y: y,
                    radiusX: size * 0.6 + 0.01,
                    radiusY: size + 0.01,
                    angle: angle,
                    colour: rim
                )
                canvas.ellipse(x: x, y: y, radiusX: size * 0.6, radiusY: size, angle: angle, colour: fill)
            }
            if kind == 4 || kind == 5 {
                canvas.disc(x: x, y: y - 0.3 * cellH, radius: size * 0.25, colour: rim)
            }
        }
    }

    private static func cover(random: inout SeededRandom, canvas: inout Canvas) {
        scene(seed: 4_242, canvas: &canvas)
        let band = TestJPEG.Colour(180, 40, 50)
        let paper = TestJPEG.Colour(250, 244, 230)
        canvas.rectangle(x: 0, y: 0.06, width: 1, height: 0.24, colour: band)
        let words = [
            "the", "silent", "river", "of", "glass", "last", "summer", "house", "winter", "garden", "north", "light",
            "a", "thousand", "roads", "salt", "orchard", "quiet", "storm", "night", "ferry", "hours",
        ]
        let title = lines(1 + Int(random.next() % 2), words: 1...2, from: words, random: &random)
        write(title, x: 0.06, y: 0.08, w: 0.88, h: 0.2, size: 0.085, ink: paper, paper: band, canvas: &canvas)
        let names = ["anna", "maria", "jonas", "ruth", "omar", "lena", "pablo", "ines", "tomas", "yara", "karl"]
        let families = ["berg", "okafor", "lind", "moreau", "silva", "novak", "haddad", "ito", "kowal", "reyes"]
        let author =
            names[Int(random.next() % UInt64(names.count))] + " "
            + families[Int(random.next() % UInt64(families.count))]
        canvas.rectangle(x: 0.1, y: 0.86, width: 0.8, height: 0.08, colour: paper)
        write([author], x: 0.12, y: 0.865, w: 0.76, h: 0.07, size: 0.05, ink: band, paper: paper, canvas: &canvas)
    }

    private static func boarding(random: inout SeededRandom, canvas: inout Canvas) {
        let ground = TestJPEG.Colour(40, 90, 170)
        let card = TestJPEG.Colour(252, 252, 252)
        let red = TestJPEG.Colour(200, 30, 40)
        let ink = TestJPEG.Colour(30, 30, 40)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        canvas.rectangle(x: 0.08, y: 0.06, width: 0.84, height: 0.88, colour: card)
        canvas.rectangle(x: 0.08, y: 0.06, width: 0.84, height: 0.1, colour: red)
        write(["boarding pass"], x: 0.12, y: 0.08, w: 0.7, h: 0.07, size: 0.05, ink: card, paper: red, canvas: &canvas)
        let airports = [
            "lis", "osl", "icn", "lim", "cai", "uio", "per", "rix", "kix", "dkr", "opo", "brn", "han", "tun", "acc",
            "sof", "jfk", "cdg", "fra", "mad", "ams", "hel", "ath", "dub",
        ]
        let from = airports[Int(random.next() % UInt64(airports.count))]
        let to = airports[Int(random.next() % UInt64(airports.count))]
        write([from], x: 0.12, y: 0.19, w: 0.32, h: 0.16, size: 0.09, ink: ink, paper: card, canvas: &canvas)
        write([to], x: 0.56, y: 0.19, w: 0.32, h: 0.16, size: 0.09, ink: ink, paper: card, canvas: &canvas)
        canvas.rectangle(x: 0.44, y: 0.265, width: 0.1, height: 0.006, colour: red)
        let names = ["ana", "bo", "chen", "dara", "eli", "femi", "gus", "hana", "ivo", "jun", "kai", "lea", "mo"]
        let passenger =
            "passenger  " + names[Int(random.next() % UInt64(names.count))] + " "
            + names[Int(random.next() % UInt64(names.count))]
        let flight = "flight  kf\(100 + random.next() % 900)   gate  \(1 + random.next() % 60)"
        let seat = "seat  \(1 + random.next() % 40)\(["a", "b", "c", "d", "e", "f"][Int(random.next() % 6)])"
        let time = "boards  \(10 + random.next() % 14):\(10 + random.next() % 50)"
        for (index, line) in [passenger, flight, seat, time].enumerated() {
            let y = 0.38 + Double(index) * 0.06
            write([line], x: 0.12, y: y, w: 0.76, h: 0.05, size: 0.035, ink: ink, paper: card, canvas: &canvas)
        }
        canvas.rectangle(x: 0.12, y: 0.64, width: 0.76, height: 0.003, colour: TestJPEG.Colour(180, 180, 190))
        let cells = 12
        let size = 0.3 * Double(canvas.width) / Double(canvas.height)
        for cell in 0..<(cells * cells) where random.next() % 2 == 0 {
            canvas.rectangle(
                x: 0.35 + Double(cell % cells) * 0.3 / Double(cells),
                y: 0.67 + Double(cell / cells) * size / Double(cells),
                width: 0.3 / Double(cells),
                height: size / Double(cells),
                colour: ink
            )
        }
    }

    private static func chat(random: inout SeededRandom, canvas: inout Canvas) {
        let ground = TestJPEG.Colour(236, 229, 221)
        let header = TestJPEG.Colour(0, 128, 105)
        let grey = TestJPEG.Colour(255, 255, 255)
        let blue = TestJPEG.Colour(220, 248, 198)
        let ink = TestJPEG.Colour(20, 20, 24)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 0.09, colour: header)
        canvas.disc(x: 0.1, y: 0.045, radius: 0.035, colour: TestJPEG.Colour(200, 200, 200))
        write(["sam"], x: 0.18, y: 0.02, w: 0.5, h: 0.06, size: 0.05, ink: grey, paper: header, canvas: &canvas)
        let words = [
            "are", "you", "coming", "tonight", "yes", "running", "late", "see", "you", "at", "eight", "ok", "bring",
            "the", "tickets", "haha", "sure", "where", "now", "train", "station", "lol", "great", "thanks",
        ]
        var y = 0.12
        while y < 0.8 {
            let right = random.next() % 2 == 0
            let count = 1 + Int(random.next() % 2)
            let text = lines(count, words: 2...4, from: words, random: &random)
            let width = 0.3 + Double(random.next() % 4) * 0.1
            let height = 0.05 * Double(count) + 0.02
            let x = right ? 0.95 - width : 0.05
            let paper = right ? blue : grey
            canvas.rectangle(x: x, y: y, width: width, height: height, colour: paper)
            write(
                text,
                x: x + 0.02,
                y: y + 0.01,
                w: width - 0.04,
                h: height - 0.02,
                size: 0.04,
                ink: ink,
                paper: paper,
                canvas: &canvas
            )
            y += height + 0.025
        }
        canvas.rectangle(x: 0, y: 0.9, width: 1, height: 0.1, colour: TestJPEG.Colour(246, 246, 246))
        canvas.rectangle(x: 0.04, y: 0.92, width: 0.76, height: 0.06, colour: grey)
        canvas.disc(x: 0.9, y: 0.95, radius: 0.04, colour: header)
    }

    private static func code(random: inout SeededRandom, canvas: inout Canvas) {
        let ground = TestJPEG.Colour(40, 42, 54)
        let gutter = TestJPEG.Colour(33, 34, 44)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 0.05, colour: TestJPEG.Colour(25, 26, 33))
        canvas.rectangle(x: 0.02, y: 0.01, width: 0.3, height: 0.04, colour: ground)
        canvas.rectangle(x: 0, y: 0.05, width: 0.1, height: 0.95, colour: gutter)
        let keywords = ["let", "var", "func", "if", "for", "return", "guard", "in", "else", "struct"]
        let names = ["count", "items", "total", "index", "value", "result", "frame", "width", "name", "cache", "page"]
        let colours = [
            TestJPEG.Colour(255, 121, 198), TestJPEG.Colour(248, 248, 242), TestJPEG.Colour(241, 250, 140),
            TestJPEG.Colour(139, 233, 253), TestJPEG.Colour(80, 250, 123),
        ]
        let count = 14 + Int(random.next() % 7)
        for line in 0..<count {
            let y = 0.07 + Double(line) * 0.045
            write(
                ["\(line + 1)"],
                x: 0.01,
                y: y,
                w: 0.08,
                h: 0.04,
                size: 0.03,
                ink: TestJPEG.Colour(98, 114, 164),
                paper: gutter,
                canvas: &canvas
            )
            var x = 0.12 + Double(random.next() % 4) * 0.05
            for token in 0..<(1 + Int(random.next() % 4)) {
                let word =
                    token == 0
                    ? keywords[Int(random.next() % UInt64(keywords.count))]
                    : names[Int(random.next() % UInt64(names.count))]
                let width = Double(word.count) * 0.03 + 0.03
                guard x + width < 0.98 else { break }
                let ink = token == 0 ? colours[0] : colours[1 + Int(random.next() % 4)]
                write([word], x: x, y: y, w: width, h: 0.04, size: 0.032, ink: ink, paper: ground, canvas: &canvas)
                x += width
            }
        }
    }

    private static func menu(random: inout SeededRandom, canvas: inout Canvas) {
        let board = TestJPEG.Colour(28, 58, 44)
        let card = TestJPEG.Colour(246, 238, 218)
        let ink = TestJPEG.Colour(40, 32, 28)
        let accent = TestJPEG.Colour(150, 40, 36)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: board)
        canvas.rectangle(x: 0.07, y: 0.04, width: 0.86, height: 0.92, colour: card)
        write(["la tavola"], x: 0.25, y: 0.05, w: 0.5, h: 0.1, size: 0.07, ink: accent, paper: card, canvas: &canvas)
        let dishes = [
            "risotto", "gnocchi", "lasagne", "ravioli", "polenta", "minestrone", "bruschetta", "carpaccio",
            "tiramisu", "panna cotta", "cannoli", "osso buco", "saltimbocca", "focaccia", "arancini", "frittata",
            "caponata", "gelato", "pesto", "vongole",
        ]
        var y = 0.16
        for heading in ["antipasti", "secondi"] {
            write([heading], x: 0.12, y: y, w: 0.5, h: 0.06, size: 0.045, ink: accent, paper: card, canvas: &canvas)
            y += 0.06
            for _ in 0..<(4 + Int(random.next() % 3)) {
                let dish = dishes[Int(random.next() % UInt64(dishes.count))]
                let price = "\(6 + random.next() % 24).\(random.next() % 2 == 0 ? "50" : "00")"
                write([dish], x: 0.12, y: y, w: 0.5, h: 0.04, size: 0.032, ink: ink, paper: card, canvas: &canvas)
                write([price], x: 0.72, y: y, w: 0.16, h: 0.04, size: 0.032, ink: ink, paper: card, canvas: &canvas)
                y += 0.045
            }
            y += 0.03
        }
        canvas.rectangle(x: 0.12, y: 0.9, width: 0.76, height: 0.003, colour: accent)
    }

    private static func timetable(random: inout SeededRandom, canvas: inout Canvas) {
        let paper = TestJPEG.Colour(250, 250, 250)
        let shade = TestJPEG.Colour(228, 232, 240)
        let header = TestJPEG.Colour(250, 204, 40)
        let ink = TestJPEG.Colour(20, 24, 40)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 0.12, colour: header)
        write(
            ["line s4  weekdays"],
            x: 0.05,
            y: 0.03,
            w: 0.9,
            h: 0.08,
            size: 0.05,
            ink: ink,
            paper: header,
            canvas: &canvas
        )
        var stations = ["north", "park", "mill lane", "old town", "harbour", "airport", "college", "bridge"]
        for index in stations.indices.reversed() {
            stations.swapAt(index, Int(random.next() % UInt64(index + 1)))
        }
        for row in 0..<6 {
            let y = 0.16 + Double(row) * 0.13
            let ground = row % 2 == 0 ? shade : paper
            canvas.rectangle(x: 0, y: y, width: 1, height: 0.13, colour: ground)
            write(
                [stations[row]],
                x: 0.02,
                y: y + 0.04,
                w: 0.24,
                h: 0.05,
                size: 0.03,
                ink: ink,
                paper: ground,
                canvas: &canvas
            )
            var minute = Int(random.next() % 60) + row * 4
            for column in 0..<7 {
                minute += 12 + Int(random.next() % 10)
                let time = "\(6 + minute / 60 % 18):\(minute % 60 < 10 ? "0" : "")\(minute % 60)"
                let x = 0.27 + Double(column) * 0.104
                write([time], x: x, y: y + 0.04, w: 0.1, h: 0.05, size: 0.026, ink: ink, paper: ground, canvas: &canvas)
            }
        }
    }

    private static func sudoku(random: inout SeededRandom, canvas: inout Canvas) {
        let paper = TestJPEG.Colour(238, 234, 222)
        let ink = TestJPEG.Colour(26, 26, 26)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        write(
            ["sudoku  no. 412"],
            x: 0.08,
            y: 0.04,
            w: 0.84,
            h: 0.07,
            size: 0.05,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        let (left, top) = (0.08, 0.16)
        let side = 0.84
        let tall = side * Double(canvas.width) / Double(canvas.height)
        for line in 0...9 {
            let weight = line % 3 == 0 ? 0.006 : 0.002
            let offset = Double(line) / 9
            canvas.rectangle(x: left + side * offset - weight / 2, y: top, width: weight, height: tall, colour: ink)
            canvas.rectangle(x: left, y: top + tall * offset - weight / 2, width: side, height: weight, colour: ink)
        }
        for _ in 0..<(24 + Int(random.next() % 9)) {
            let cell = Int(random.next() % 81)
            let digit = "\(1 + random.next() % 9)"
            write(
                [digit],
                x: left + side * (Double(cell % 9) + 0.12) / 9,
                y: top + tall * (Double(cell / 9) + 0.06) / 9,
                w: side * 0.8 / 9,
                h: tall * 0.9 / 9,
                size: 0.04,
                ink: ink,
                paper: paper,
                canvas: &canvas
            )
        }
    }

    private static func poster(random: inout SeededRandom, canvas: inout Canvas) {
        scene(seed: 7_070, canvas: &canvas)
        let white = TestJPEG.Colour(250, 250, 250)
        let red = TestJPEG.Colour(210, 36, 48)
        let dark = TestJPEG.Colour(24, 20, 28)
        canvas.rectangle(x: 0, y: 0.62, width: 1, height: 0.38, colour: dark)
        write(
            ["the hollow pines"],
            x: 0.06,
            y: 0.63,
            w: 0.88,
            h: 0.12,
            size: 0.08,
            ink: white,
            paper: dark,
            canvas: &canvas
        )
        canvas.rectangle(x: 0.06, y: 0.76, width: 0.88, height: 0.06, colour: red)
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let date = "\(1 + random.next() % 28) \(months[Int(random.next() % 12)]) 2027  doors 7 pm"
        write([date], x: 0.08, y: 0.765, w: 0.84, h: 0.05, size: 0.036, ink: white, paper: red, canvas: &canvas)
        let cities = ["leeds", "bristol", "glasgow", "cardiff", "brighton", "norwich", "belfast", "york", "bath"]
        let venues = ["corn exchange", "the forum", "old fire station", "guildhall", "social club", "pavilion"]
        let place =
            cities[Int(random.next() % UInt64(cities.count))] + "  " + venues[Int(random.next() % UInt64(venues.count))]
        let acts = ["low tide", "pale rider", "the foxes", "mira lune", "quiet harbour", "ember", "north of june"]
        let support =
            "with " + acts[Int(random.next() % UInt64(acts.count))] + " and "
            + acts[Int(random.next() % UInt64(acts.count))]
        write(
            [place, support],
            x: 0.06,
            y: 0.84,
            w: 0.88,
            h: 0.12,
            size: 0.032,
            ink: white,
            paper: dark,
            canvas: &canvas
        )
    }

    private static func sheet(random: inout SeededRandom, canvas: inout Canvas) {
        let paper = TestJPEG.Colour(252, 250, 244)
        let ink = TestJPEG.Colour(20, 20, 20)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        write(["air in g"], x: 0.3, y: 0.03, w: 0.4, h: 0.07, size: 0.05, ink: ink, paper: paper, canvas: &canvas)
        let gap = 0.012
        for staff in 0..<5 {
            let top = 0.14 + Double(staff) * 0.17
            for line in 0..<5 {
                canvas.rectangle(x: 0.06, y: top + Double(line) * gap, width: 0.88, height: 0.002, colour: ink)
            }
            canvas.rectangle(x: 0.08, y: top - 0.01, width: 0.02, height: gap * 6, colour: ink)
            let bars = 3 + Int(random.next() % 2)
            for bar in 1...bars {
                let x = 0.12 + 0.82 * Double(bar) / Double(bars)
                canvas.rectangle(x: x - 0.002, y: top, width: 0.003, height: gap * 4, colour: ink)
            }
            var x = 0.15
            while x < 0.92 {
                let step = Int(random.next() % 11) - 2
                let y = top + Double(step) * gap / 2
                canvas.ellipse(x: x, y: y, radiusX: 0.011, radiusY: 0.008, angle: -0.4, colour: ink)
                let up = step > 4
                canvas.rectangle(
                    x: up ? x - 0.011 : x + 0.009,
                    y: up ? y : y - 0.045,
                    width: 0.003,
                    height: 0.045,
                    colour: ink
                )
                x += 0.04 + Double(random.next() % 3) * 0.02
            }
        }
    }

    private static func nutrition(random: inout SeededRandom, canvas: inout Canvas) {
        let ground = TestJPEG.Colour(226, 232, 222)
        let label = TestJPEG.Colour(255, 255, 255)
        let ink = TestJPEG.Colour(16, 16, 16)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        canvas.rectangle(x: 0.12, y: 0.08, width: 0.76, height: 0.85, colour: ink)
        canvas.rectangle(x: 0.125, y: 0.084, width: 0.75, height: 0.842, colour: label)
        write(
            ["nutrition facts"],
            x: 0.14,
            y: 0.09,
            w: 0.72,
            h: 0.08,
            size: 0.062,
            ink: ink,
            paper: label,
            canvas: &canvas
        )
        let servings = 2 + random.next() % 10
        let grams = 20 + random.next() % 240
        write(
            ["\(servings) servings per container", "serving size  \(grams) g"],
            x: 0.14,
            y: 0.17,
            w: 0.72,
            h: 0.08,
            size: 0.03,
            ink: ink,
            paper: label,
            canvas: &canvas
        )
        canvas.rectangle(x: 0.14, y: 0.255, width: 0.72, height: 0.014, colour: ink)
        write(["calories"], x: 0.14, y: 0.27, w: 0.4, h: 0.07, size: 0.05, ink: ink, paper: label, canvas: &canvas)
        write(
            ["\(40 + random.next() % 560)"],
            x: 0.62,
            y: 0.265,
            w: 0.24,
            h: 0.08,
            size: 0.064,
            ink: ink,
            paper: label,
            canvas: &canvas
        )
        canvas.rectangle(x: 0.14, y: 0.345, width: 0.72, height: 0.007, colour: ink)
        let nutrients: [(String, String, UInt64)] = [
            ("total fat", "g", 30), ("saturated fat", "g", 12), ("trans fat", "g", 4), ("cholesterol", "mg", 300),
            ("sodium", "mg", 2_000), ("total carbohydrate", "g", 90), ("dietary fiber", "g", 14),
            ("total sugars", "g", 40), ("protein", "g", 30), ("vitamin d", "mcg", 20), ("calcium", "mg", 900),
            ("iron", "mg", 18),
        ]
        for (row, (name, unit, most)) in nutrients.enumerated() {
            let y = 0.355 + Double(row) * 0.045
            let amount = random.next() % (most + 1)
            write(
                ["\(name)  \(amount) \(unit)"],
                x: 0.14,
                y: y,
                w: 0.56,
                h: 0.042,
                size: 0.028,
                ink: ink,
                paper: label,
                canvas: &canvas
            )
            write(
                ["\(amount * 100 / max(1, most * 2 / 3)) %"],
                x: 0.7,
                y: y,
                w: 0.16,
                h: 0.042,
                size: 0.028,
                ink: ink,
                paper: label,
                canvas: &canvas
            )
            canvas.rectangle(x: 0.14, y: y + 0.042, width: 0.72, height: 0.002, colour: ink)
        }
    }

    private static func crossword(random: inout SeededRandom, canvas: inout Canvas) {
        let paper = TestJPEG.Colour(244, 242, 236)
        let ink = TestJPEG.Colour(22, 22, 22)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        write(
            ["cryptic crossword  no. 9,114"],
            x: 0.06,
            y: 0.095,
            w: 0.88,
            h: 0.065,
            size: 0.04,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        let size = 13
        // One newspaper's pattern, symmetric under a half turn: the same for every member.
        var black = Set<Int>()
        var pattern = SeededRandom(scrambling: 100_099)
        for _ in 0..<22 {
            let cell = Int(pattern.next() % UInt64(size * size))
            black.insert(cell)
            black.insert(size * size - 1 - cell)
        }
        let own = Int(random.next() % 4)
        for _ in 0..<own { black.insert(Int(random.next() % UInt64(size * size))) }
        let (left, top, side) = (0.06, 0.16, 0.88)
        let tall = side * Double(canvas.width) / Double(canvas.height)
        let (cellWidth, cellHeight) = (side / Double(size), tall / Double(size))
        canvas.rectangle(x: left - 0.004, y: top - 0.003, width: side + 0.008, height: tall + 0.006, colour: ink)
        canvas.rectangle(x: left, y: top, width: side, height: tall, colour: paper)
        var number = 1
        for cell in 0..<(size * size) {
            let (column, row) = (cell % size, cell / size)
            let (x, y) = (left + Double(column) * cellWidth, top + Double(row) * cellHeight)
            if black.contains(cell) {
                canvas.rectangle(x: x, y: y, width: cellWidth, height: cellHeight, colour: ink)
                continue
            }
            let startsAcross =
                (column == 0 || black.contains(cell - 1)) && column + 1 < size && !black.contains(cell + 1)
            let startsDown =
                (row == 0 || black.contains(cell - size)) && row + 1 < size && !black.contains(cell + size)
            if startsAcross || startsDown {
                write(
                    ["\(number)"],
                    x: x + 0.002,
                    y: y + 0.001,
                    w: cellWidth * 0.95,
                    h: cellHeight * 0.3,
                    size: 0.014,
                    ink: ink,
                    paper: paper,
                    canvas: &canvas
                )
                number += 1
            }
        }
        let letters = Array("abcdeeeghilmnoprsttu")
        for _ in 0..<(40 + Int(random.next() % 31)) {
            let cell = Int(random.next() % UInt64(size * size))
            guard !black.contains(cell) else { continue }
            write(
                [String(letters[Int(random.next() % UInt64(letters.count))])],
                x: left + (Double(cell % size) + 0.14) * cellWidth,
                y: top + (Double(cell / size) + 0.3) * cellHeight,
                w: cellWidth * 0.84,
                h: cellHeight * 0.68,
                size: 0.026,
                ink: ink,
                paper: paper,
                canvas: &canvas
            )
        }
        for line in 0...size {
            let offset = Double(line)
            canvas.rectangle(x: left + offset * cellWidth - 0.001, y: top, width: 0.002, height: tall, colour: ink)
            canvas.rectangle(x: left, y: top + offset * cellHeight - 0.001, width: side, height: 0.0016, colour: ink)
        }
    }

    private static func ticker(random: inout SeededRandom, canvas: inout Canvas) {
        let ground = TestJPEG.Colour(14, 18, 26)
        let row = TestJPEG.Colour(24, 30, 42)
        let ink = TestJPEG.Colour(226, 230, 238)
        let up = TestJPEG.Colour(40, 200, 110)
        let down = TestJPEG.Colour(236, 70, 70)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        write(
            ["watchlist   close"],
            x: 0.06,
            y: 0.08,
            w: 0.88,
            h: 0.07,
            size: 0.048,
            ink: ink,
            paper: ground,
            canvas: &canvas
        )
        let symbols = ["aapl", "msft", "nvda", "amzn", "tsla", "meta", "goog", "nflx", "intc", "amd", "ibm", "orcl"]
        for (index, symbol) in symbols.enumerated() {
            let y = 0.16 + Double(index) * 0.062
            let shade = index % 2 == 0 ? row : ground
            canvas.rectangle(x: 0.04, y: y, width: 0.92, height: 0.058, colour: shade)
            let price = 20 + random.next() % 600
            let cents = random.next() % 100
            let rising = random.next() % 2 == 0
            let change = random.next() % 500
            let colour = rising ? up : down
            let sign = rising ? "+" : "-"
            write(
                [symbol],
                x: 0.06,
                y: y + 0.008,
                w: 0.2,
                h: 0.045,
                size: 0.03,
                ink: ink,
                paper: shade,
                canvas: &canvas
            )
            write(
                ["\(price).\(cents < 10 ? "0" : "")\(cents)"],
                x: 0.3,
                y: y + 0.008,
                w: 0.24,
                h: 0.045,
                size: 0.03,
                ink: ink,
                paper: shade,
                canvas: &canvas
            )
            write(
                ["\(sign)\(change / 100).\(change % 100 < 10 ? "0" : "")\(change % 100) %"],
                x: 0.56,
                y: y + 0.008,
                w: 0.22,
                h: 0.045,
                size: 0.03,
                ink: colour,
                paper: shade,
                canvas: &canvas
            )
            let length = 0.01 + Double(change) / 500 * 0.1
            canvas.rectangle(x: 0.8, y: y + 0.022, width: length, height: 0.016, colour: colour)
        }
    }

    private static func shelf(random: inout SeededRandom, canvas: inout Canvas) {
        let wall = TestJPEG.Colour(200, 204, 210)
        let edge = TestJPEG.Colour(110, 114, 122)
        let tag = TestJPEG.Colour(252, 220, 60)
        let ink = TestJPEG.Colour(20, 20, 24)
        let red = TestJPEG.Colour(200, 30, 40)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: wall)
        let products = [
            "oat milk 1 l", "rye bread", "green tea 20", "penne 500 g", "olive oil", "rice 1 kg", "honey 250 g",
            "coffee beans", "lentils", "tomato passata", "muesli", "dark chocolate", "apple juice", "peanut butter",
        ]
        for shelfRow in 0..<2 {
            let y = 0.16 + Double(shelfRow) * 0.38
            canvas.rectangle(x: 0, y: y - 0.02, width: 1, height: 0.26, colour: edge)
            for column in 0..<3 {
                let x = 0.04 + Double(column) * 0.315
                canvas.rectangle(x: x, y: y, width: 0.29, height: 0.22, colour: tag)
                canvas.rectangle(x: x, y: y, width: 0.29, height: 0.012, colour: red)
                let name = products[Int(random.next() % UInt64(products.count))]
                let euros = 1 + random.next() % 9
                let cents = random.next() % 100
                let grams = [250, 400, 500, 750, 1_000][Int(random.next() % 5)]
                write(
                    [name],
                    x: x + 0.01,
                    y: y + 0.02,
                    w: 0.27,
                    h: 0.045,
                    size: 0.026,
                    ink: ink,
                    paper: tag,
                    canvas: &canvas
                )
                write(
                    ["\(euros).\(cents < 10 ? "0" : "")\(cents)"],
                    x: x + 0.01,
                    y: y + 0.07,
                    w: 0.27,
                    h: 0.09,
                    size: 0.07,
                    ink: ink,
                    paper: tag,
                    canvas: &canvas
                )
                let perKilo = (Int(euros) * 100 + Int(cents)) * 1_000 / grams
                write(
                    ["\(grams) g  \(perKilo / 100).\(perKilo % 100 < 10 ? "0" : "")\(perKilo % 100) / kg"],
                    x: x + 0.01,
                    y: y + 0.165,
                    w: 0.27,
                    h: 0.045,
                    size: 0.022,
                    ink: ink,
                    paper: tag,
                    canvas: &canvas
                )
            }
        }
    }

    /// The corpus photos the `inset` family is made of: one backdrop and twelve insets.
    private static let insetBackdrop = "17-aitzgorri.jpg"
    private static let insetPhotos = [
        "02-greenmeadow.jpg", "03-freshflower.jpg", "04-dune.jpg", "08-friends.jpg", "10-ladybird-prog.jpg",
        "11-bythewater.jpg", "12-colorfulcups.jpg", "13-fallenleaf.jpg", "15-wine.jpg", "20-dragonfly-o6.jpg",
        "21-sunset.jpg", "22-bridge.jpg",
    ]

    /// The folder of real photos the photo families are made of: the environment's `KFEED_CORPUS`, default
    /// `/tmp/kfeed-corpus` (made by `bench/corpus.sh`).
    package static var corpus: String { ProcessInfo.processInfo.environment["KFEED_CORPUS"] ?? "/tmp/kfeed-corpus" }

    /// Whether the corpus is there (its last photo is): tests of the photo families run only where it is.
    package static var corpusIsThere: Bool { FileManager.default.fileExists(atPath: corpus + "/24-seeding.jpg") }

    /// The RGBX pixels of real photo `name` of the corpus, centre-cropped and resampled to `width`×`height`.
    /// Stops the program with one line saying how to make the corpus when the photo cannot be read.
    private static func photo(_ name: String, width: Int, height: Int) -> [UInt8] {
        let key = "\(name) \(width)x\(height)"
        if let pixels = decodedPhotos.withLock({ $0.pixels[key] }) { return pixels }
        let pixels = decodedPhoto(name, width: width, height: height)
        decodedPhotos.withLock { cache in
            // Whole again when full: the members of one family reuse a few photos at a few sizes.
            if cache.bytes + pixels.count > 96 << 20 { cache = PhotoCache() }
            cache.pixels[key] = pixels
            cache.bytes += pixels.count
        }
        return pixels
    }

    /// The photos decoded at the sizes the members asked for, up to 96 MiB: a family's 72 members decode each of
    /// their few photos once, not once a member (a 2560×1600 photo takes tens of milliseconds).
    private struct PhotoCache {
        var pixels: [String: [UInt8]] = [:]
        var bytes = 0
    }
    private static let decodedPhotos = Mutex(PhotoCache())

    /// ``photo(_:width:height:)``, decoded from the file.
    private static func decodedPhoto(_ name: String, width: Int, height: Int) -> [UInt8] {
        let url = URL(fileURLWithPath: corpus, isDirectory: true).appendingPathComponent(name)
        guard let jpeg = try? Data(contentsOf: url),
            let rgbx = try? JPEGThumbnailer().pixels(of: jpeg, size: ImageSize(width: width, height: height))
        else {
            fatalError(
                "The families made of real photos need the corpus photo \(url.path): make it with bash bench/corpus.sh"
            )
        }
        return rgbx
    }

    private static func inset(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        pasteBackdrop(insetBackdrop, canvas: &canvas)
        // About 15 % of the frame, at one of six places inside the square a `small` widget crops to.
        let (w, h) = (width * 44 / 100, height * 33 / 100)
        let place = seed / 12 % 6
        let left = place % 2 == 0 ? width * 6 / 100 : width - w - width * 6 / 100
        let top = height * [12, 34, 55][place / 2] / 100
        let frame = max(2, width / 136)
        canvas.rectangle(
            x: Double(left - frame) / Double(width),
            y: Double(top - frame) / Double(height),
            width: Double(w + 2 * frame) / Double(width),
            height: Double(h + 2 * frame) / Double(height),
            colour: TestJPEG.Colour(250, 250, 250)
        )
        let inset = photo(insetPhotos[seed % 12], width: w, height: h)
        canvas.paste(inset, channels: 4, width: w, height: h, left: left, top: top)
    }

    /// The corpus photos the `pasted` family is made of: one backdrop and eight subjects.
    private static let pastedBackdrop = "14-summer1am.jpg"
    private static let pastedPhotos = [
        "01-picture1a.jpg", "05-blinds-o3.jpg", "07-storm-prog.jpg", "09-picture0b.jpg", "16-free.jpg",
        "18-life-base.jpg", "19-picosdeeuropa.jpg", "24-seeding.jpg",
    ]

    private static func pasted(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        pasteBackdrop(pastedBackdrop, canvas: &canvas)
        // A disc of 4 % of the frame.
        let side = Int((0.04 * Double(width * height) / Double.pi).squareRoot() * 2)
        let place = seed / 8 % 9
        let centreX = width * [25, 50, 75][place % 3] / 100
        let centreY = height * [30, 50, 70][place / 3] / 100
        pasteDisc(
            pastedPhotos[seed % 8],
            side: side,
            left: centreX - side / 2,
            top: centreY - side / 2,
            canvas: &canvas
        )
    }

    /// The corpus photo `name` over the whole canvas.
    private static func pasteBackdrop(_ name: String, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        canvas.paste(
            photo(name, width: width, height: height),
            channels: 4,
            width: width,
            height: height,
            left: 0,
            top: 0
        )
    }

    /// The corpus photo `name` fitted into a `side`×`side` square, cut to the disc inside it, with the square's top
    /// left corner at (`left`, `top`).
    private static func pasteDisc(_ name: String, side: Int, left: Int, top: Int, canvas: inout Canvas) {
        let subject = photo(name, width: side, height: side)
        let radius = Double(side) / 2
        for row in 0..<side {
            for column in 0..<side {
                let (dx, dy) = (Double(column) + 0.5 - radius, Double(row) + 0.5 - radius)
                guard dx * dx + dy * dy <= radius * radius else { continue }
                let source = (row * side + column) * 4
                canvas.set(
                    left + column,
                    top + row,
                    TestJPEG.Colour(subject[source], subject[source + 1], subject[source + 2])
                )
            }
        }
    }

    /// The side of the square a `small` widget crops to (the centred square), its left column and its top row.
    private static func widgetSquare(_ canvas: Canvas) -> (side: Int, left: Int, top: Int) {
        let side = min(canvas.width, canvas.height)
        return (side, (canvas.width - side) / 2, (canvas.height - side) / 2)
    }

    private static func colourway(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let pixels = photo("09-picture0b.jpg", width: width, height: height)
        // The glaze's hue in the photo (degrees) and the member's colour.
        let glaze = 10.0
        let hue = Double(seed % 12) * 30
        let finishes: [(saturation: Double, value: Double)] = [
            (1, 1), (0.5, 1.1), (1, 0.5), (0.7, 0.9), (1, 0.75), (0.6, 0.6),
        ]
        let finish = finishes[seed / 12 % 6]
        for index in 0..<(width * height) {
            let source = index * 4
            // The fig's flesh shares the glaze's hue: an ellipse around the fig is left as it is.
            let (fx, fy) = (
                (Double(index % width) / Double(width) - 0.658) / 0.21,
                (Double(index / width) / Double(height) - 0.551) / 0.198
            )
            let outsideTheFig = min(1, max(0, (fx * fx + fy * fy - 1) / 0.1))
            let (r, g, b) = (Double(pixels[source]), Double(pixels[source + 1]), Double(pixels[source + 2]))
            let most = max(r, g, b)
            let least = min(r, g, b)
            var colour = TestJPEG.Colour(pixels[source], pixels[source + 1], pixels[source + 2])
            let saturation = most > 0 ? (most - least) / most : 0
            if most > least {
                let span = most - least
                let sextant =
                    most == r ? (g - b) / span : most == g ? 2 + (b - r) / span : 4 + (r - g) / span
                let own = (sextant * 60 + 360).truncatingRemainder(dividingBy: 360)
                var away = abs(own - glaze)
                away = min(away, 360 - away)
                // Full weight within 22° of the glaze's hue, above 0.5 saturation and brightness 90, none past 34°,
                // below 0.3 or below 50.
                let weight =
                    min(1, max(0, (34 - away) / 12)) * min(1, max(0, (saturation - 0.3) / 0.2))
                    * min(1, max(0, (most - 50) / 40)) * outsideTheFig
                if weight > 0 {
                    let recoloured = hsv(
                        hue: hue + own - glaze,
                        saturation: min(1, saturation * finish.saturation),
                        value: min(1, most / 255 * finish.value)
                    )
                    func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
                        UInt8((Double(a) * (1 - weight) + Double(b) * weight).rounded())
                    }
                    colour = TestJPEG.Colour(
                        mix(colour.red, recoloured.red),
                        mix(colour.green, recoloured.green),
                        mix(colour.blue, recoloured.blue)
                    )
                }
            }
            canvas.set(index % width, index / width, colour)
        }
    }

    private static func burst(seed: Int, canvas: inout Canvas) {
        pasteBackdrop("19-picosdeeuropa.jpg", canvas: &canvas)
        let (side, left, top) = widgetSquare(canvas)
        let diameter = side * 16 / 100
        let place = seed % 72
        let centreX = Double(left) + Double(side) * (0.12 + 0.76 * Double(place % 12) / 11)
        let centreY = Double(top) + Double(side) * (0.14 + 0.72 * Double(place / 12) / 5)
        let radius = Double(diameter) / 2
        pasteDisc(
            "12-colorfulcups.jpg",
            side: diameter,
            left: Int(centreX - radius),
            top: Int(centreY - radius),
            canvas: &canvas
        )
    }

    private static func torch(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let scene = photo("11-bythewater.jpg", width: width, height: height)
        let (side, left, top) = widgetSquare(canvas)
        let place = seed % 72
        let centreX = Double(left) + Double(side) * (0.1 + 0.8 * Double(place % 12) / 11)
        let centreY = Double(top) + Double(side) * (0.12 + 0.76 * Double(place / 12) / 5)
        let radius = 0.1 * Double(width)
        for row in 0..<height {
            for column in 0..<width {
                let (dx, dy) = ((Double(column) + 0.5 - centreX) / radius, (Double(row) + 0.5 - centreY) / radius)
                let reach = dx * dx + dy * dy
                let light = reach < 1 ? (1 - reach) * (1 - reach) : 0
                let gain = 0.1 + 0.9 * light
                let source = (row * width + column) * 4
                func lit(_ value: UInt8) -> UInt8 { UInt8((Double(value) * gain).rounded()) }
                canvas.set(
                    column,
                    row,
                    TestJPEG.Colour(lit(scene[source]), lit(scene[source + 1]), lit(scene[source + 2]))
                )
            }
        }
    }

    private static func puzzle(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let (square, squareLeft, top) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(46, 40, 36))
        canvas.rectangle(
            x: (Double(squareLeft) + 0.03 * Double(square)) / Double(width),
            y: (Double(top) + 0.03 * Double(square)) / Double(height),
            width: 0.94 * Double(square) / Double(width),
            height: 0.94 * Double(square) / Double(height),
            colour: TestJPEG.Colour(150, 104, 62)
        )
        let (gap, tile) = (max(2, width / 180), square * 22 / 100)
        let side = 4 * tile
        let (left, boardTop) = ((width - side) / 2, top + (square - side) / 2)
        let picture = photo("18-life-base.jpg", width: side, height: side)
        var pairs: [(Int, Int)] = []
        for a in 0..<16 { for b in (a + 1)..<16 { pairs.append((a, b)) } }
        let (first, second) = pairs[seed * 7 % pairs.count]
        for place in 0..<16 {
            let shown = place == first ? second : place == second ? first : place
            let (toX, toY) = (left + place % 4 * tile, boardTop + place / 4 * tile)
            let (fromX, fromY) = (shown % 4 * tile, shown / 4 * tile)
            for row in 0..<tile {
                for column in 0..<tile {
                    let inGap = row < gap / 2 || column < gap / 2 || row >= tile - gap / 2 || column >= tile - gap / 2
                    let source = ((fromY + row) * side + fromX + column) * 4
                    canvas.set(
                        toX + column,
                        toY + row,
                        inGap
                            ? TestJPEG.Colour(30, 24, 20)
                            : TestJPEG.Colour(picture[source], picture[source + 1], picture[source + 2])
                    )
                }
            }
        }
    }

    /// The corpus photos the `diptych` family pairs.
    private static let diptychPhotos = [
        "01-picture1a.jpg", "02-greenmeadow.jpg", "03-freshflower.jpg", "04-dune.jpg", "05-blinds-o3.jpg",
        "06-raindrops-o8.jpg", "07-storm-prog.jpg", "08-friends.jpg", "10-ladybird-prog.jpg", "13-fallenleaf.jpg",
        "15-wine.jpg", "20-dragonfly-o6.jpg", "21-sunset.jpg",
    ]

    private static func diptych(seed: Int, canvas: inout Canvas) {
        let (square, squareLeft, top) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(250, 250, 248))
        var pairs: [(Int, Int)] = []
        for a in diptychPhotos.indices { for b in diptychPhotos.indices where b > a { pairs.append((a, b)) } }
        let (first, second) = pairs[seed * 5 % pairs.count]
        let (w, h) = (square * 45 / 100, square * 80 / 100)
        let (y, gutter) = (top + square * 10 / 100, (square - 2 * w) / 3)
        for (slot, index) in [first, second].enumerated() {
            canvas.paste(
                photo(diptychPhotos[index], width: w, height: h),
                channels: 4,
                width: w,
                height: h,
                left: squareLeft + gutter + slot * (w + gutter),
                top: y
            )
        }
    }

    /// Framing `index` of a `columns` × `rows` grid of `width`×`height` framings of the corpus photo `name`, each
    /// `stride` of a framing's width (across) or height (down) from the next, the photo resampled so that the grid
    /// covers it: RGBX pixels.
    private static func framing(
        _ name: String,
        columns: Int,
        rows: Int,
        stride: Double,
        index: Int,
        width: Int,
        height: Int
    ) -> [UInt8] {
        let (strideX, strideY) = (Int(Double(width) * stride), Int(Double(height) * stride))
        let (wholeWidth, wholeHeight) = (width + (columns - 1) * strideX, height + (rows - 1) * strideY)
        let whole = photo(name, width: wholeWidth, height: wholeHeight)
        let (left, top) = (index % columns * strideX, index / columns * strideY)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let source = ((top + row) * wholeWidth + left) * 4
            pixels[(row * width * 4)..<((row + 1) * width * 4)] = whole[source..<(source + width * 4)]
        }
        return pixels
    }

    /// Framing `seed` mod 6 of a 3 × 2 grid of framings, each 60 % of its size from the next (about 40 % shared),
    /// of the (`seed` / 6)th of twelve corpus `photos`: the `fog`, `dusk` and `window` families' views.
    private static func sixFramings(of photos: [String], seed: Int, width: Int, height: Int) -> [UInt8] {
        framing(photos[seed / 6 % 12], columns: 3, rows: 2, stride: 0.6, index: seed % 6, width: width, height: height)
    }

    /// The corpus photos the `pan` family frames.
    private static let panPhotos = ["18-life-base.jpg", "12-colorfulcups.jpg", "24-seeding.jpg"]

    private static func pan(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        canvas.paste(
            framing(
                panPhotos[seed / 24 % 3],
                columns: 6,
                rows: 4,
                stride: 0.55,
                index: seed % 24,
                width: width,
                height: height
            ),
            channels: 4,
            width: width,
            height: height,
            left: 0,
            top: 0
        )
    }

    /// The corpus photos the `fog` family shows.
    private static let fogPhotos = [
        "17-aitzgorri.jpg", "18-life-base.jpg", "19-picosdeeuropa.jpg", "21-sunset.jpg", "22-bridge.jpg",
        "24-seeding.jpg", "04-dune.jpg", "10-ladybird-prog.jpg", "11-bythewater.jpg", "13-fallenleaf.jpg",
        "16-free.jpg",
        "12-colorfulcups.jpg",
    ]

    private static func fog(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let scene = sixFramings(of: fogPhotos, seed: seed, width: width, height: height)
        let haze = [200.0, 204, 210]
        for row in 0..<height {
            let through = 0.3 + 0.25 * Double(row) / Double(height - 1)
            for column in 0..<width {
                let source = (row * width + column) * 4
                func fogged(_ channel: Int) -> UInt8 {
                    UInt8((haze[channel] * (1 - through) + Double(scene[source + channel]) * through).rounded())
                }
                canvas.set(column, row, TestJPEG.Colour(fogged(0), fogged(1), fogged(2)))
            }
        }
    }

    private static func dusk(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let scene = sixFramings(of: duskPhotos, seed: seed, width: width, height: height)
        let cast = [0.75, 0.9, 1.15]
        paintNight(scene, gain: 0.35, power: 1.5, cast: cast, canvas: &canvas)
    }

    /// Paints `scene` (RGBX, the canvas's size) darkened to a night shot: each channel at `gain` of its level (0…1)
    /// raised to `power`, times its `cast` (red, green, blue), of 255.
    private static func paintNight(
        _ scene: [UInt8],
        gain: Double,
        power: Double,
        cast: [Double],
        canvas: inout Canvas
    ) {
        let width = canvas.width
        for index in 0..<(width * canvas.height) {
            func night(_ channel: Int) -> UInt8 {
                let level = 255 * gain * pow(Double(scene[index * 4 + channel]) / 255, power) * cast[channel]
                return UInt8(min(255, level.rounded()))
            }
            canvas.set(index % width, index / width, TestJPEG.Colour(night(0), night(1), night(2)))
        }
    }

    /// The corpus photos the `dusk` family darkens: twelve whose six framings each a viewer tells apart (not the
    /// textures of grass and leaves, the smooth skies, the blurred ground around the dragonfly, the storm's clouds).
    private static let duskPhotos = [
        "01-picture1a.jpg", "08-friends.jpg", "09-picture0b.jpg", "10-ladybird-prog.jpg", "11-bythewater.jpg",
        "12-colorfulcups.jpg", "13-fallenleaf.jpg", "15-wine.jpg", "16-free.jpg", "17-aitzgorri.jpg",
        "18-life-base.jpg", "19-picosdeeuropa.jpg",
    ]

    /// The corpus's 24 photos, in its order (the `mosaic` family's tiles).
    private static let corpusPhotos = [
        "01-picture1a.jpg", "02-greenmeadow.jpg", "03-freshflower.jpg", "04-dune.jpg", "05-blinds-o3.jpg",
        "06-raindrops-o8.jpg", "07-storm-prog.jpg", "08-friends.jpg", "09-picture0b.jpg", "10-ladybird-prog.jpg",
        "11-bythewater.jpg", "12-colorfulcups.jpg", "13-fallenleaf.jpg", "14-summer1am.jpg", "15-wine.jpg",
        "16-free.jpg", "17-aitzgorri.jpg", "18-life-base.jpg", "19-picosdeeuropa.jpg", "20-dragonfly-o6.jpg",
        "21-sunset.jpg", "22-bridge.jpg", "23-infinitesea.jpg", "24-seeding.jpg",
    ]

    private static func mosaic(random: inout SeededRandom, canvas: inout Canvas) {
        let (square, left, top) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(22, 22, 26))
        let tile = square / 6
        let (boardLeft, boardTop) = (left + (square - 6 * tile) / 2, top + (square - 6 * tile) / 2)
        var tiles: [Int: [UInt8]] = [:]
        for place in 0..<36 {
            let shown = Int(random.next() % 24)
            if tiles[shown] == nil { tiles[shown] = photo(corpusPhotos[shown], width: tile, height: tile) }
            canvas.paste(
                tiles[shown] ?? [],
                channels: 4,
                width: tile,
                height: tile,
                left: boardLeft + place % 6 * tile,
                top: boardTop + place / 6 * tile
            )
        }
    }

    /// The corpus landscapes the `window` family looks out on.
    private static let windowPhotos = [
        "03-freshflower.jpg", "04-dune.jpg", "07-storm-prog.jpg", "11-bythewater.jpg", "10-ladybird-prog.jpg",
        "17-aitzgorri.jpg", "18-life-base.jpg", "19-picosdeeuropa.jpg", "21-sunset.jpg", "22-bridge.jpg",
        "13-fallenleaf.jpg", "24-seeding.jpg",
    ]

    private static func window(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let (square, squareLeft, top) = widgetSquare(canvas)
        canvas.gradient(from: TestJPEG.Colour(150, 138, 124), to: TestJPEG.Colour(118, 106, 94))
        let (w, h) = (square * 70 / 100, square * 75 / 100)
        let (left, openingTop) = (squareLeft + (square - w) / 2, top + square * 10 / 100)
        let bar = square * 3 / 100
        let white = TestJPEG.Colour(236, 234, 228)
        func fill(_ x: Int, _ y: Int, _ boxWidth: Int, _ boxHeight: Int, _ colour: TestJPEG.Colour) {
            canvas.rectangle(
                x: Double(x) / Double(width),
                y: Double(y) / Double(height),
                width: Double(boxWidth) / Double(width),
                height: Double(boxHeight) / Double(height),
                colour: colour
            )
        }
        // The frame, the view, the mullions, the sill.
        fill(left - bar, openingTop - bar, w + 2 * bar, h + 2 * bar, white)
        canvas.paste(
            sixFramings(of: windowPhotos, seed: seed, width: w, height: h),
            channels: 4,
            width: w,
            height: h,
            left: left,
            top: openingTop
        )
        fill(left + w / 2 - bar / 2, openingTop, bar, h, white)
        fill(left, openingTop + h / 2 - bar / 2, w, bar, white)
        fill(left - 2 * bar, openingTop + h + bar, w + 4 * bar, 2 * bar, TestJPEG.Colour(210, 206, 198))
    }

    /// A rectangle given in fractions of the square a `small` widget crops to (`x`, `y` from its top left corner),
    /// in the fractions of the whole canvas that `Canvas.rectangle` and `write` take.
    private static func inSquare(
        _ canvas: Canvas,
        x: Double,
        y: Double,
        w: Double,
        h: Double
    ) -> (x: Double, y: Double, w: Double, h: Double) {
        let (side, left, top) = widgetSquare(canvas)
        let (width, height, size) = (Double(canvas.width), Double(canvas.height), Double(side))
        return (
            (Double(left) + x * size) / width, (Double(top) + y * size) / height, w * size / width, h * size / height
        )
    }

    /// The pixel at `x`, `y` (fractions of the widget's square from its top left corner): where a picture pasted there
    /// starts.
    private static func pixelInSquare(_ canvas: Canvas, x: Double, y: Double) -> (left: Int, top: Int) {
        let at = inSquare(canvas, x: x, y: y, w: 0, h: 0)
        return (Int(at.x * Double(canvas.width)), Int(at.y * Double(canvas.height)))
    }

    /// A rectangle of `colour` given in fractions of the widget's square.
    private static func fillSquare(
        _ x: Double,
        _ y: Double,
        _ w: Double,
        _ h: Double,
        _ colour: TestJPEG.Colour,
        canvas: inout Canvas
    ) {
        let box = inSquare(canvas, x: x, y: y, w: w, h: h)
        canvas.rectangle(x: box.x, y: box.y, width: box.w, height: box.h, colour: colour)
    }

    /// `lines` written in a box given in fractions of the widget's square, at a pixel size of `size` × the square's
    /// side.
    private static func writeInSquare(
        _ lines: [String],
        x: Double,
        y: Double,
        w: Double,
        h: Double,
        size: Double,
        ink: TestJPEG.Colour,
        paper: TestJPEG.Colour,
        canvas: inout Canvas
    ) {
        let box = inSquare(canvas, x: x, y: y, w: w, h: h)
        let (side, _, _) = widgetSquare(canvas)
        write(
            lines,
            x: box.x,
            y: box.y,
            w: box.w,
            h: box.h,
            size: size * Double(side) / Double(canvas.width),
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
    }

    /// The `part`th (0, 1 or 2, left to right) of three side-by-side thirds of the corpus photo `name`, which share
    /// no pixel, each `width`×`height`: RGBX pixels.
    private static func photoThird(_ name: String, part: Int, width: Int, height: Int) -> [UInt8] {
        framing(name, columns: 3, rows: 1, stride: 1, index: part, width: width, height: height)
    }

    /// Pastes ``photoThird(_:part:width:height:)`` with its top left at (`x`, `y`) of the widget's square.
    private static func pasteThird(
        _ name: String,
        part: Int,
        width: Int,
        height: Int,
        x: Double,
        y: Double,
        canvas: inout Canvas
    ) {
        let (left, top) = pixelInSquare(canvas, x: x, y: y)
        canvas.paste(
            photoThird(name, part: part, width: width, height: height),
            channels: 4,
            width: width,
            height: height,
            left: left,
            top: top
        )
    }

    /// The pose family's poses: each limb's angle from hanging straight down, in degrees, outwards (away from the
    /// body's middle) positive: left arm, right arm, left leg, right leg.
    private static let poses: [(leftArm: Double, rightArm: Double, leftLeg: Double, rightLeg: Double)] = [
        (8, 8, 4, 4),  // standing, arms down
        (160, 160, 4, 4),  // arms raised
        (90, 90, 4, 4),  // arms spread
        (8, 150, 4, 4),  // waving
        (130, 130, 32, 32),  // a star jump
        (-30, 35, 28, -22),  // walking
        (10, 92, 14, 14),  // pointing
        (40, 40, 12, 12),  // arms akimbo
        (60, 60, 4, 85),  // a kick
        (95, 25, 50, 4),  // a lunge
        (175, 110, 16, 40),  // cheering
        (-60, 125, 4, 24),  // reaching across
    ]

    private static func pose(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        pasteBackdrop("17-aitzgorri.jpg", canvas: &canvas)
        let (side, squareLeft, top) = widgetSquare(canvas)
        let pose = poses[seed % 12]
        let place = seed / 12 % 6
        // The figure's box: 46 % of the square high, 40 % wide, its top left at one of six places.
        let (boxWidth, boxHeight) = (side * 40 / 100, side * 46 / 100)
        let boxLeft = squareLeft + side * [4, 30, 56][place % 3] / 100
        let boxTop = top + side * [5, 50][place / 3] / 100
        // The figure drawn white on black, then filled with the flower's texture.
        var mask = Canvas(width: width, height: height)
        let unit = Double(side)
        let centreX = Double(boxLeft) + Double(boxWidth) / 2
        let white = TestJPEG.Colour(255, 255, 255)
        func point(_ x: Double, _ y: Double) -> (Double, Double) {
            (x / Double(width), y / Double(height))
        }
        let headY = Double(boxTop) + 0.06 * unit
        let (head, body) = (point(centreX, headY), point(centreX, headY + 0.15 * unit))
        mask.ellipse(x: head.0, y: head.1, radiusX: 0.045, radiusY: 0.055, angle: 0, colour: white)
        mask.box(x: body.0, y: body.1, halfWidth: 0.05, halfHeight: 0.095, angle: 0, colour: white)
        func limb(fromX x: Double, fromY y: Double, degrees: Double, outwards: Double, length: Double) {
            // Outwards is to the left for the left limbs; the limb's box turned so that it points that way.
            let turn = outwards * degrees * Double.pi / 180
            let (dx, dy) = (sin(turn) * length * unit / 2, cos(turn) * length * unit / 2)
            let centre = point(x + dx, y + dy)
            mask.box(
                x: centre.0,
                y: centre.1,
                halfWidth: 0.022,
                halfHeight: length / 2,
                angle: -turn,
                colour: white
            )
        }
        let shoulderY = headY + 0.085 * unit
        let hipY = headY + 0.235 * unit
        limb(fromX: centreX - 0.045 * unit, fromY: shoulderY, degrees: pose.leftArm, outwards: -1, length: 0.16)
        limb(fromX: centreX + 0.045 * unit, fromY: shoulderY, degrees: pose.rightArm, outwards: 1, length: 0.16)
        limb(fromX: centreX - 0.025 * unit, fromY: hipY, degrees: pose.leftLeg, outwards: -1, length: 0.19)
        limb(fromX: centreX + 0.025 * unit, fromY: hipY, degrees: pose.rightLeg, outwards: 1, length: 0.19)
        // The texture: the flower photo over a box around the figure (its reach: a limb's length each way).
        let reach = Int(0.2 * unit)
        let (textureLeft, textureTop) = (boxLeft - reach, boxTop - reach)
        let (textureWidth, textureHeight) = (boxWidth + 2 * reach, boxHeight + 2 * reach)
        let texture = photo("03-freshflower.jpg", width: textureWidth, height: textureHeight)
        for row in max(0, textureTop)..<min(height, textureTop + textureHeight) {
            for column in max(0, textureLeft)..<min(width, textureLeft + textureWidth)
            where mask.pixels[(row * width + column) * 3] == 255 {
                let source = ((row - textureTop) * textureWidth + column - textureLeft) * 4
                canvas.set(column, row, TestJPEG.Colour(texture[source], texture[source + 1], texture[source + 2]))
            }
        }
    }

    /// Words the text families' seeded headlines, titles and names are made of.
    private static let headlineWords = [
        "city", "council", "votes", "new", "bridge", "plan", "storm", "season", "record", "harvest", "river", "market",
        "opens", "after", "years", "local", "team", "wins", "final", "school", "festival", "returns", "rail", "line",
        "delayed", "museum", "finds", "rare", "summer", "crowds", "coast", "park", "mayor", "budget", "night", "trains",
    ]

    private static func news(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(232, 232, 236))
        let (white, red, ink) = (
            TestJPEG.Colour(255, 255, 255), TestJPEG.Colour(196, 30, 40), TestJPEG.Colour(28, 28, 32)
        )
        fillSquare(0.05, 0.03, 0.9, 0.94, white, canvas: &canvas)
        fillSquare(0.05, 0.03, 0.9, 0.1, red, canvas: &canvas)
        writeInSquare(
            ["the daily courier"],
            x: 0.08,
            y: 0.03,
            w: 0.84,
            h: 0.1,
            size: 0.055,
            ink: white,
            paper: red,
            canvas: &canvas
        )
        let (w, h) = (side * 84 / 100, side * 42 / 100)
        pasteThird(
            corpusPhotos[seed % 24],
            part: seed / 24 % 3,
            width: w,
            height: h,
            x: 0.08,
            y: 0.145,
            canvas: &canvas
        )
        let sections = ["world", "local", "sport", "science", "culture", "business", "weather", "travel"]
        let section = sections[Int(random.next() % UInt64(sections.count))]
        writeInSquare(
            [section],
            x: 0.08,
            y: 0.57,
            w: 0.5,
            h: 0.065,
            size: 0.04,
            ink: red,
            paper: white,
            canvas: &canvas
        )
        let headline = lines(3, words: 2...3, from: headlineWords, random: &random)
        writeInSquare(
            headline,
            x: 0.08,
            y: 0.63,
            w: 0.84,
            h: 0.26,
            size: 0.056,
            ink: ink,
            paper: white,
            canvas: &canvas
        )
        let names = ["ana ruiz", "tom okafor", "li wei", "sara berg", "max kuhn", "ines costa", "omar haddad"]
        let byline =
            "by \(names[Int(random.next() % UInt64(names.count))])  ·  \(1 + random.next() % 11) h ago"
        writeInSquare(
            [byline],
            x: 0.08,
            y: 0.89,
            w: 0.84,
            h: 0.06,
            size: 0.035,
            ink: TestJPEG.Colour(120, 120, 128),
            paper: white,
            canvas: &canvas
        )
    }

    private static func episode(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        canvas.gradient(from: TestJPEG.Colour(12, 16, 34), to: TestJPEG.Colour(40, 18, 48))
        // The arched window: a rectangle topped by a half disc, 56 % of the square wide and 52 % high.
        let (w, h) = (side * 56 / 100, side * 52 / 100)
        let (left, top) = pixelInSquare(canvas, x: 0.22, y: 0.05)
        let view = photoThird(corpusPhotos[seed * 7 % 24], part: seed / 24 % 3, width: w, height: h)
        let radius = Double(w) / 2
        let gold = TestJPEG.Colour(232, 190, 96)
        for row in 0..<h {
            for column in 0..<w {
                let (dx, dy) = (Double(column) + 0.5 - radius, Double(row) + 0.5 - radius)
                guard row >= Int(radius) || dx * dx + dy * dy <= radius * radius else { continue }
                let source = (row * w + column) * 4
                canvas.set(left + column, top + row, TestJPEG.Colour(view[source], view[source + 1], view[source + 2]))
            }
        }
        let ground = TestJPEG.Colour(26, 17, 41)
        writeInSquare(
            ["the long way home"],
            x: 0.1,
            y: 0.6,
            w: 0.8,
            h: 0.08,
            size: 0.05,
            ink: TestJPEG.Colour(220, 220, 232),
            paper: ground,
            canvas: &canvas
        )
        writeInSquare(
            ["episode \(seed + 1)"],
            x: 0.1,
            y: 0.68,
            w: 0.8,
            h: 0.17,
            size: 0.1,
            ink: gold,
            paper: ground,
            canvas: &canvas
        )
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let date = "fri \(1 + random.next() % 28) \(months[Int(random.next() % 12)])  ·  \(7 + random.next() % 4) pm"
        writeInSquare(
            [date],
            x: 0.1,
            y: 0.85,
            w: 0.8,
            h: 0.08,
            size: 0.045,
            ink: TestJPEG.Colour(170, 170, 190),
            paper: TestJPEG.Colour(32, 17, 44),
            canvas: &canvas
        )
    }

    private static func player(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let ground = TestJPEG.Colour(20, 20, 24)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        // The album art, dimmed: each channel 18 + a third of its level.
        let art = side * 58 / 100
        let (left, top) = pixelInSquare(canvas, x: 0.21, y: 0.06)
        let view = photoThird(corpusPhotos[seed * 5 % 24], part: seed / 24 % 3, width: art, height: art)
        for row in 0..<art {
            for column in 0..<art {
                let source = (row * art + column) * 4
                func dim(_ value: UInt8) -> UInt8 { UInt8(18 + Int(value) / 3) }
                canvas.set(
                    left + column,
                    top + row,
                    TestJPEG.Colour(dim(view[source]), dim(view[source + 1]), dim(view[source + 2]))
                )
            }
        }
        let title = lines(1, words: 2...3, from: headlineWords, random: &random)
        let artists = ["the quiet hours", "nora vale", "low tide", "ember and ash", "kai moreno", "the late lines"]
        let artist = artists[Int(random.next() % UInt64(artists.count))]
        let grey = TestJPEG.Colour(92, 92, 100)
        writeInSquare(title, x: 0.1, y: 0.665, w: 0.8, h: 0.09, size: 0.05, ink: grey, paper: ground, canvas: &canvas)
        writeInSquare(
            [artist],
            x: 0.1,
            y: 0.755,
            w: 0.8,
            h: 0.065,
            size: 0.038,
            ink: TestJPEG.Colour(64, 64, 72),
            paper: ground,
            canvas: &canvas
        )
        // The track's bar, its place in it and the time.
        let played = 0.05 + random.unit() * 0.9
        fillSquare(0.1, 0.84, 0.8, 0.012, TestJPEG.Colour(46, 46, 52), canvas: &canvas)
        fillSquare(0.1, 0.84, 0.8 * played, 0.012, TestJPEG.Colour(84, 84, 92), canvas: &canvas)
        let seconds = Int(played * 240)
        writeInSquare(
            ["\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"],
            x: 0.1,
            y: 0.87,
            w: 0.3,
            h: 0.06,
            size: 0.035,
            ink: TestJPEG.Colour(64, 64, 72),
            paper: ground,
            canvas: &canvas
        )
        for control in 0..<3 {
            let centre = inSquare(canvas, x: 0.4 + Double(control) * 0.1, y: 0.93, w: 0, h: 0)
            canvas.disc(
                x: centre.x,
                y: centre.y,
                radius: control == 1 ? 0.03 : 0.018,
                colour: TestJPEG.Colour(60, 60, 68)
            )
        }
    }

    private static func viewer(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        canvas.gradient(from: TestJPEG.Colour(70, 84, 110), to: TestJPEG.Colour(40, 48, 66))
        let (bar, paper, ink, pane) = (
            TestJPEG.Colour(222, 222, 226), TestJPEG.Colour(246, 246, 248), TestJPEG.Colour(40, 40, 46),
            TestJPEG.Colour(44, 44, 48)
        )
        fillSquare(0.02, 0.04, 0.96, 0.92, paper, canvas: &canvas)
        fillSquare(0.02, 0.04, 0.96, 0.07, bar, canvas: &canvas)
        let number = 1000 + Int(random.next() % 9000)
        writeInSquare(
            ["img_\(number).jpg - photos"],
            x: 0.2,
            y: 0.05,
            w: 0.6,
            h: 0.055,
            size: 0.035,
            ink: ink,
            paper: bar,
            canvas: &canvas
        )
        for (index, colour) in [(200, 70, 60), (220, 170, 50), (90, 170, 80)].enumerated() {
            let centre = inSquare(canvas, x: 0.05 + Double(index) * 0.035, y: 0.075, w: 0, h: 0)
            canvas.disc(
                x: centre.x,
                y: centre.y,
                radius: 0.011,
                colour: TestJPEG.Colour(UInt8(colour.0), UInt8(colour.1), UInt8(colour.2))
            )
        }
        // The sidebar: eight file names, the member's selected.
        let selected = Int(random.next() % 8)
        for row in 0..<8 {
            let name = "img_\(number - selected + row).jpg"
            let y = 0.14 + Double(row) * 0.065
            let back = row == selected ? TestJPEG.Colour(60, 110, 200) : paper
            fillSquare(0.03, y, 0.25, 0.06, back, canvas: &canvas)
            writeInSquare(
                [name],
                x: 0.035,
                y: y + 0.003,
                w: 0.24,
                h: 0.055,
                size: 0.03,
                ink: row == selected ? TestJPEG.Colour(255, 255, 255) : ink,
                paper: back,
                canvas: &canvas
            )
        }
        // The pane and the photo in it.
        fillSquare(0.29, 0.12, 0.68, 0.72, pane, canvas: &canvas)
        let (w, h) = (side * 64 / 100, side * 62 / 100)
        pasteThird(
            corpusPhotos[seed * 11 % 24],
            part: seed / 24 % 3,
            width: w,
            height: h,
            x: 0.31,
            y: 0.17,
            canvas: &canvas
        )
        let stops = ["f/1.8", "f/2.8", "f/4", "f/5.6", "f/8", "f/11"]
        let status =
            "4032 x 3024  ·  \(1 + random.next() % 9).\(random.next() % 10) mb  ·  "
            + "\(stops[Int(random.next() % 6)])  1/\(60 << (random.next() % 5))  iso \(100 << (random.next() % 4))"
        fillSquare(0.02, 0.86, 0.96, 0.1, bar, canvas: &canvas)
        writeInSquare([status], x: 0.04, y: 0.88, w: 0.92, h: 0.06, size: 0.032, ink: ink, paper: bar, canvas: &canvas)
    }

    private static func lights(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let scene = photoThird(corpusPhotos[seed * 13 % 24], part: seed / 24 % 3, width: width, height: height)
        let cast = [0.8, 0.9, 1.2]
        paintNight(scene, gain: 0.11, power: 1.4, cast: cast, canvas: &canvas)
        // Lit windows: warm rectangles 2.5–4.5 % of the square wide and 3–5.5 % high.
        for _ in 0..<(6 + Int(random.next() % 5)) {
            let (w, h) = (0.025 + random.unit() * 0.02, 0.03 + random.unit() * 0.025)
            let (x, y) = (0.05 + random.unit() * 0.85, 0.05 + random.unit() * 0.85)
            let level = 170 + Double(random.next() % 86)
            let warm = TestJPEG.Colour(UInt8(level), UInt8(level * 0.78), UInt8(level * 0.45))
            fillSquare(x, y, w, h, warm, canvas: &canvas)
        }
        // Street lamps: a dim halo of 4 % of the square's side around a bright core of 1.2 %.
        for _ in 0..<(2 + Int(random.next() % 2)) {
            let centre = inSquare(canvas, x: 0.08 + random.unit() * 0.84, y: 0.1 + random.unit() * 0.8, w: 0, h: 0)
            canvas.disc(x: centre.x, y: centre.y, radius: 0.04, colour: TestJPEG.Colour(70, 56, 30))
            canvas.disc(x: centre.x, y: centre.y, radius: 0.012, colour: TestJPEG.Colour(255, 236, 190))
        }
    }

    private static func grain(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let scene = photoThird(corpusPhotos[seed * 17 % 24], part: seed / 24 % 3, width: width, height: height)
        for index in 0..<(width * height) {
            // Luminance noise: the sum of three uniform draws, up to ±60; colour noise: up to ±24 a channel.
            let luminance = (random.unit() + random.unit() + random.unit() - 1.5) * 40
            var colour = [UInt8](repeating: 0, count: 3)
            for channel in 0..<3 {
                let level = 40 + 0.45 * Double(scene[index * 4 + channel]) + luminance + (random.unit() - 0.5) * 48
                colour[channel] = UInt8(max(0, min(255, level.rounded())))
            }
            canvas.set(index % width, index / width, TestJPEG.Colour(colour[0], colour[1], colour[2]))
        }
    }

    private static func table(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        pasteBackdrop("11-bythewater.jpg", canvas: &canvas)
        let (side, _, _) = widgetSquare(canvas)
        let (index, group) = (seed % 24, seed / 24 % 3)
        let objects = [index, (index + 5 + 2 * group) % 24, (index + 11 + 7 * group) % 24]
        // The three objects' centres and sizes in fractions of the widget's square: the plate (a disc), the card (a
        // box turned by 12°) and the dish (an ellipse turned by −20°).
        let places = [(x: 0.28, y: 0.3), (x: 0.72, y: 0.32), (x: 0.5, y: 0.74)]
        let shadow = TestJPEG.Colour(30, 24, 20)
        for (slot, photoIndex) in objects.enumerated() {
            var mask = Canvas(width: width, height: height)
            let centre = inSquare(canvas, x: places[slot].x, y: places[slot].y, w: 0, h: 0)
            let offset = 0.018 * Double(side)
            let shadowCentre = (x: centre.x + offset / Double(width), y: centre.y + offset / Double(height))
            func shape(_ target: inout Canvas, _ at: (x: Double, y: Double), _ colour: TestJPEG.Colour) {
                switch slot {
                case 0: target.disc(x: at.x, y: at.y, radius: 0.2, colour: colour)
                case 1:
                    target.box(x: at.x, y: at.y, halfWidth: 0.15, halfHeight: 0.2, angle: 0.21, colour: colour)
                default:
                    target.ellipse(x: at.x, y: at.y, radiusX: 0.26, radiusY: 0.16, angle: -0.35, colour: colour)
                }
            }
            shape(&canvas, shadowCentre, shadow)
            shape(&mask, (x: centre.x, y: centre.y), TestJPEG.Colour(255, 255, 255))
            // The object's texture: its photo over a square box of 56 % of the widget's square around the centre.
            let box = side * 56 / 100
            let (boxLeft, boxTop) = (Int(centre.x * Double(width)) - box / 2, Int(centre.y * Double(height)) - box / 2)
            let texture = photo(corpusPhotos[photoIndex], width: box, height: box)
            for row in max(0, boxTop)..<min(height, boxTop + box) {
                for column in max(0, boxLeft)..<min(width, boxLeft + box)
                where mask.pixels[(row * width + column) * 3] == 255 {
                    let source = ((row - boxTop) * box + column - boxLeft) * 4
                    canvas.set(column, row, TestJPEG.Colour(texture[source], texture[source + 1], texture[source + 2]))
                }
            }
        }
    }

    private static func infographic(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(226, 230, 236))
        let (white, ink, accent) = (
            TestJPEG.Colour(255, 255, 255), TestJPEG.Colour(30, 34, 44), TestJPEG.Colour(24, 120, 160)
        )
        fillSquare(0.04, 0.03, 0.92, 0.94, white, canvas: &canvas)
        let (w, h) = (side * 88 / 100, side * 22 / 100)
        pasteThird(
            corpusPhotos[seed % 24],
            part: seed / 24 % 3,
            width: w,
            height: h,
            x: 0.06,
            y: 0.05,
            canvas: &canvas
        )
        let topics = [
            "where the water goes", "a year of trains", "what we throw away", "the city at night",
            "how we get to work", "the price of bread", "who reads the news", "a week of weather",
        ]
        let title = topics[Int(random.next() % UInt64(topics.count))]
        writeInSquare([title], x: 0.07, y: 0.28, w: 0.86, h: 0.09, size: 0.055, ink: ink, paper: white, canvas: &canvas)
        let labels = [
            "homes", "farms", "industry", "rail", "bus", "car", "bike", "walk", "paper", "glass", "food", "metal",
            "north", "south", "east", "west", "young", "old", "online", "print",
        ]
        var shares = (0..<5).map { _ in 1 + Double(random.next() % 40) }
        let total = shares.reduce(0, +)
        shares = shares.map { $0 / total }
        for (row, share) in shares.enumerated() {
            let y = 0.39 + Double(row) * 0.09
            let label = labels[Int(random.next() % UInt64(labels.count))]
            writeInSquare([label], x: 0.07, y: y, w: 0.24, h: 0.07, size: 0.04, ink: ink, paper: white, canvas: &canvas)
            fillSquare(0.32, y + 0.015, 0.5 * share / (shares.max() ?? 1), 0.04, accent, canvas: &canvas)
            writeInSquare(
                ["\(Int((share * 100).rounded())) %"],
                x: 0.83,
                y: y,
                w: 0.13,
                h: 0.07,
                size: 0.035,
                ink: ink,
                paper: white,
                canvas: &canvas
            )
        }
        let sources = ["city survey", "national office", "open data", "annual report", "field count"]
        writeInSquare(
            ["source: \(sources[Int(random.next() % 5)]) \(2015 + random.next() % 10)"],
            x: 0.07,
            y: 0.86,
            w: 0.86,
            h: 0.06,
            size: 0.03,
            ink: TestJPEG.Colour(120, 124, 134),
            paper: white,
            canvas: &canvas
        )
    }

    private static func comic(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(250, 248, 240))
        let (black, white) = (TestJPEG.Colour(12, 12, 12), TestJPEG.Colour(255, 255, 255))
        let panel = side * 44 / 100
        for k in 0..<4 {
            let (x, y) = (0.04 + Double(k % 2) * 0.48, 0.04 + Double(k / 2) * 0.48)
            fillSquare(x, y, 0.46, 0.46, black, canvas: &canvas)
            let name = corpusPhotos[(seed % 24 + 6 * k) % 24]
            pasteThird(
                name,
                part: (seed / 24 + k) % 3,
                width: panel,
                height: panel,
                x: x + 0.01,
                y: y + 0.01,
                canvas: &canvas
            )
        }
        let openings = ["meanwhile", "later that day", "back home", "the next morning", "at the market", "that night"]
        writeInSquare(
            [openings[Int(random.next() % UInt64(openings.count))]],
            x: 0.06,
            y: 0.06,
            w: 0.4,
            h: 0.06,
            size: 0.032,
            ink: black,
            paper: TestJPEG.Colour(250, 226, 120),
            canvas: &canvas
        )
        for (x, y) in [(0.74, 0.13), (0.28, 0.86)] {
            let centre = inSquare(canvas, x: x, y: y, w: 0, h: 0)
            canvas.ellipse(x: centre.x, y: centre.y, radiusX: 0.2, radiusY: 0.075, angle: 0, colour: black)
            canvas.ellipse(x: centre.x, y: centre.y, radiusX: 0.195, radiusY: 0.07, angle: 0, colour: white)
            writeInSquare(
                lines(2, words: 1...2, from: headlineWords, random: &random),
                x: x - 0.16,
                y: y - 0.055,
                w: 0.32,
                h: 0.11,
                size: 0.032,
                ink: black,
                paper: white,
                canvas: &canvas
            )
        }
    }

    /// `lines` in `ink` laid over what the canvas shows (no paper: each pixel takes the ink by the text's cover of
    /// it), in a box given in fractions of the widget's square, at a pixel size of `size` × the square's side.
    private static func inkInSquare(
        _ lines: [String],
        x: Double,
        y: Double,
        w: Double,
        h: Double,
        size: Double,
        ink: TestJPEG.Colour,
        canvas: inout Canvas
    ) {
        let box = inSquare(canvas, x: x, y: y, w: w, h: h)
        let (side, _, _) = widgetSquare(canvas)
        let (left, top) = (Int(box.x * Double(canvas.width)), Int(box.y * Double(canvas.height)))
        let width = min(canvas.width - left, Int(box.w * Double(canvas.width)))
        let height = min(canvas.height - top, Int(box.h * Double(canvas.height)))
        guard width > 0, height > 0,
            let cover = FontStack.graphic(
                lines,
                width: width,
                height: height,
                pixelSize: max(6, Int(size * Double(side))),
                ink: [255, 255, 255],
                paper: [0, 0, 0]
            )
        else { return }
        for row in 0..<height {
            for column in 0..<width where cover[(row * width + column) * 4] > 0 {
                canvas.blend(left + column, top + row, ink, Double(cover[(row * width + column) * 4]) / 255)
            }
        }
    }

    /// A translucent rectangle: `colour` laid with `alpha` (0…1) over a box given in fractions of the widget's square.
    private static func veilSquare(
        _ x: Double,
        _ y: Double,
        _ w: Double,
        _ h: Double,
        _ colour: TestJPEG.Colour,
        alpha: Double,
        canvas: inout Canvas
    ) {
        let box = inSquare(canvas, x: x, y: y, w: w, h: h)
        let (width, height) = (Double(canvas.width), Double(canvas.height))
        for row in max(0, Int(box.y * height))..<min(canvas.height, Int((box.y + box.h) * height)) {
            for column in max(0, Int(box.x * width))..<min(canvas.width, Int((box.x + box.w) * width)) {
                canvas.blend(column, row, colour, alpha)
            }
        }
    }

    /// Pixels of `texture` (RGBX, `side`×`side`, its top left at `(left, top)`) where `mask` is white, each channel
    /// made `offset` + `gain` × its level.
    private static func paste(
        _ texture: [UInt8],
        side: Int,
        left: Int,
        top: Int,
        where mask: Canvas,
        offset: Double = 0,
        gain: Double = 1,
        canvas: inout Canvas
    ) {
        func level(_ value: UInt8) -> UInt8 { UInt8(min(255, (offset + gain * Double(value)).rounded())) }
        for row in max(0, top)..<min(canvas.height, top + side) {
            for column in max(0, left)..<min(canvas.width, left + side)
            where mask.pixels[(row * canvas.width + column) * 3] == 255 {
                let source = ((row - top) * side + column - left) * 4
                canvas.set(
                    column,
                    row,
                    TestJPEG.Colour(level(texture[source]), level(texture[source + 1]), level(texture[source + 2]))
                )
            }
        }
    }

    private static func billboard(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let (side, _, _) = widgetSquare(canvas)
        pasteBackdrop("19-picosdeeuropa.jpg", canvas: &canvas)
        // Two posts, the frame, the advert (a photo part no other member shows) and the slogan's strip.
        let steel = TestJPEG.Colour(52, 50, 48)
        fillSquare(0.3, 0.6, 0.035, 0.32, steel, canvas: &canvas)
        fillSquare(0.665, 0.6, 0.035, 0.32, steel, canvas: &canvas)
        fillSquare(0.2, 0.26, 0.6, 0.38, steel, canvas: &canvas)
        pasteThird(
            corpusPhotos[seed * 19 % 24],
            part: seed / 24 % 3,
            width: side * 56 / 100,
            height: side * 26 / 100,
            x: 0.22,
            y: 0.28,
            canvas: &canvas
        )
        let strip = hsv(hue: random.unit() * 360, saturation: 0.75, value: 0.8)
        writeInSquare(
            lines(1, words: 2...3, from: headlineWords, random: &random),
            x: 0.22,
            y: 0.555,
            w: 0.56,
            h: 0.065,
            size: 0.04,
            ink: TestJPEG.Colour(255, 255, 255),
            paper: strip,
            canvas: &canvas
        )
        // The weather over the whole scene.
        let weather = (seed + seed / 24) % 6
        for index in 0..<(width * height) {
            let offset = index * 3
            let (r, g, b) = (
                Double(canvas.pixels[offset]), Double(canvas.pixels[offset + 1]), Double(canvas.pixels[offset + 2])
            )
            let grey = 0.3 * r + 0.59 * g + 0.11 * b
            let down = Double(index / width) / Double(height)
            let weathered: (Double, Double, Double) =
                switch weather {
                case 1: (r * 1.12 + 12, g * 0.9, b * 0.62)  // golden hour
                case 2:  // overcast
                    (
                        40 + 0.85 * (grey * 0.75 + r * 0.25), 40 + 0.85 * (grey * 0.75 + g * 0.25),
                        44 + 0.85 * (grey * 0.75 + b * 0.25)
                    )
                case 3:  // a storm, darkest at the top
                    ((0.35 + 0.2 * down) * r * 0.8, (0.35 + 0.2 * down) * g * 0.88, (0.35 + 0.2 * down) * b * 1.1)
                case 4: (0.65 * r + 0.35 * 235, 0.65 * g + 0.35 * 238, 0.65 * b + 0.35 * 245)  // snow
                case 5:  // rain
                    (
                        0.7 * (grey * 0.5 + r * 0.5) * 0.85, 0.7 * (grey * 0.5 + g * 0.5) * 0.9,
                        0.7 * (grey * 0.5 + b * 0.5)
                    )
                default: (r, g, b)  // clear
                }
            canvas.pixels[offset] = UInt8(min(255, max(0, weathered.0.rounded())))
            canvas.pixels[offset + 1] = UInt8(min(255, max(0, weathered.1.rounded())))
            canvas.pixels[offset + 2] = UInt8(min(255, max(0, weathered.2.rounded())))
        }
        if weather == 4 {
            for _ in 0..<260 {
                let centre = inSquare(canvas, x: random.unit() * 1.1 - 0.05, y: random.unit() * 1.1 - 0.05, w: 0, h: 0)
                let radius = 0.003 + random.unit() * 0.005
                canvas.disc(x: centre.x, y: centre.y, radius: radius, colour: TestJPEG.Colour(250, 250, 252))
            }
        } else if weather == 5 {
            for _ in 0..<180 {
                // Inside the square: `Canvas.box` must not be given a shape that lies wholly off the canvas.
                let centre = inSquare(
                    canvas,
                    x: 0.02 + random.unit() * 0.96,
                    y: 0.02 + random.unit() * 0.96,
                    w: 0,
                    h: 0
                )
                canvas.box(
                    x: centre.x,
                    y: centre.y,
                    halfWidth: 0.0015,
                    halfHeight: 0.02 + random.unit() * 0.02,
                    angle: 0.3,
                    colour: TestJPEG.Colour(196, 202, 212)
                )
            }
        }
    }

    private static func lockscreen(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        canvas.paste(
            photoThird(corpusPhotos[seed * 23 % 24], part: seed / 24 % 3, width: width, height: height),
            channels: 4,
            width: width,
            height: height,
            left: 0,
            top: 0
        )
        let (white, black, ink) = (
            TestJPEG.Colour(255, 255, 255), TestJPEG.Colour(0, 0, 0), TestJPEG.Colour(34, 34, 40)
        )
        // The status bar, the clock and the date.
        veilSquare(0, 0, 1, 0.05, black, alpha: 0.4, canvas: &canvas)
        let carriers = ["nordnet", "kite mobile", "orbis", "tele 4", "airwave"]
        let carrier = carriers[Int(random.next() % UInt64(carriers.count))]
        inkInSquare([carrier], x: 0.02, y: -0.005, w: 0.4, h: 0.055, size: 0.03, ink: white, canvas: &canvas)
        veilSquare(0.86, 0.015, 0.09 * (0.3 + 0.7 * random.unit()), 0.022, white, alpha: 0.85, canvas: &canvas)
        let (hour, minute) = (1 + random.next() % 12, random.next() % 60)
        inkInSquare(
            ["\(hour):\(minute < 10 ? "0" : "")\(minute)"],
            x: 0.06,
            y: 0.05,
            w: 0.9,
            h: 0.26,
            size: 0.17,
            ink: white,
            canvas: &canvas
        )
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let months = ["january", "march", "may", "june", "august", "october", "november"]
        let date = "\(days[Int(random.next() % 7)]) \(1 + random.next() % 28) \(months[Int(random.next() % 7)])"
        inkInSquare([date], x: 0.06, y: 0.27, w: 0.9, h: 0.07, size: 0.045, ink: white, canvas: &canvas)
        // Translucent notification cards.
        let apps = ["messages", "mail", "calendar", "weather", "news", "photos", "bank", "music"]
        for card in 0..<(1 + Int(random.next() % 3)) {
            let y = 0.38 + Double(card) * 0.155
            veilSquare(0.05, y, 0.9, 0.135, white, alpha: 0.62, canvas: &canvas)
            let app = apps[Int(random.next() % UInt64(apps.count))]
            inkInSquare(
                [app],
                x: 0.07,
                y: y,
                w: 0.5,
                h: 0.05,
                size: 0.03,
                ink: TestJPEG.Colour(80, 80, 90),
                canvas: &canvas
            )
            inkInSquare(
                lines(1, words: 3...4, from: headlineWords, random: &random),
                x: 0.07,
                y: y + 0.045,
                w: 0.86,
                h: 0.08,
                size: 0.042,
                ink: ink,
                canvas: &canvas
            )
        }
        // The torch's and the camera's buttons and the home bar.
        for x in [0.12, 0.88] {
            let centre = inSquare(canvas, x: x, y: 0.9, w: 0, h: 0)
            canvas.disc(x: centre.x, y: centre.y, radius: 0.05, colour: TestJPEG.Colour(46, 46, 52))
            canvas.disc(x: centre.x, y: centre.y, radius: 0.014, colour: white)
        }
        veilSquare(0.33, 0.972, 0.34, 0.01, white, alpha: 0.9, canvas: &canvas)
    }

    private static func backlit(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let (side, squareLeft, top) = widgetSquare(canvas)
        let scene = photo("21-sunset.jpg", width: width, height: height)
        // The sun's glare, warm, around a point 32 % down the widget's square.
        let sun = (x: Double(squareLeft) + 0.5 * Double(side), y: Double(top) + 0.32 * Double(side))
        for index in 0..<(width * height) {
            let dx = (Double(index % width) - sun.x) / Double(side)
            let dy = (Double(index / width) - sun.y) / Double(side)
            let glare = 150 * exp(-(dx * dx + dy * dy) / 0.06)
            func washed(_ channel: Int, _ tint: Double) -> UInt8 {
                UInt8(min(255, (96 + 0.4 * Double(scene[index * 4 + channel]) + glare * tint).rounded()))
            }
            canvas.set(index % width, index / width, TestJPEG.Colour(washed(0, 1), washed(1, 0.9), washed(2, 0.7)))
        }
        // The subject, dark against the glare: a photo part no other member shows, in one of four shapes and two
        // sizes at one of nine places.
        let place = seed % 9
        let centre = inSquare(canvas, x: [0.22, 0.5, 0.78][place % 3], y: [0.26, 0.54, 0.8][place / 3], w: 0, h: 0)
        var mask = Canvas(width: width, height: height)
        let white = TestJPEG.Colour(255, 255, 255)
        // Two members at one place differ in shape or in size: 8 of them a place, each in its own.
        let scale = seed / 36 % 2 == 0 ? 1 : 0.72
        switch seed / 9 % 4 {
        case 0: mask.disc(x: centre.x, y: centre.y, radius: 0.13 * scale, colour: white)
        case 1:
            mask.ellipse(
                x: centre.x,
                y: centre.y,
                radiusX: 0.085 * scale,
                radiusY: 0.17 * scale,
                angle: 0,
                colour: white
            )
        case 2:
            mask.box(
                x: centre.x,
                y: centre.y,
                halfWidth: 0.115 * scale,
                halfHeight: 0.115 * scale,
                angle: 0.4,
                colour: white
            )
        default:
            mask.ellipse(
                x: centre.x,
                y: centre.y,
                radiusX: 0.18 * scale,
                radiusY: 0.085 * scale,
                angle: -0.2,
                colour: white
            )
        }
        let box = side * 40 / 100
        paste(
            photoThird(corpusPhotos[(seed * 5 + 3) % 24], part: seed / 24 % 3, width: box, height: box),
            side: box,
            left: Int(centre.x * Double(width)) - box / 2,
            top: Int(centre.y * Double(height)) - box / 2,
            where: mask,
            offset: 12,
            gain: 0.45,
            canvas: &canvas
        )
    }

    /// The words the `listing` family names its products with.
    private static let productWords = [
        "linen", "oak", "ceramic", "wool", "copper", "glass", "cotton", "walnut", "stone", "clay", "mug", "vase",
        "lamp",
        "bowl", "throw", "tray", "jug", "print", "cushion", "planter",
    ]

    private static func listing(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(240, 240, 236))
        let (white, ink, green) = (
            TestJPEG.Colour(255, 255, 255), TestJPEG.Colour(30, 32, 30), TestJPEG.Colour(34, 84, 60)
        )
        fillSquare(0, 0, 1, 0.09, green, canvas: &canvas)
        writeInSquare(
            ["north & pine"],
            x: 0.04,
            y: 0.005,
            w: 0.5,
            h: 0.08,
            size: 0.045,
            ink: white,
            paper: green,
            canvas: &canvas
        )
        writeInSquare(
            ["basket (\(random.next() % 5))"],
            x: 0.7,
            y: 0.015,
            w: 0.28,
            h: 0.07,
            size: 0.032,
            ink: white,
            paper: green,
            canvas: &canvas
        )
        fillSquare(0.06, 0.115, 0.88, 0.86, white, canvas: &canvas)
        pasteThird(
            corpusPhotos[(seed * 5 + 7) % 24],
            part: seed / 24 % 3,
            width: side * 56 / 100,
            height: side * 46 / 100,
            x: 0.22,
            y: 0.14,
            canvas: &canvas
        )
        if seed % 3 == 0 {
            let red = TestJPEG.Colour(200, 40, 40)
            fillSquare(0.62, 0.16, 0.14, 0.06, red, canvas: &canvas)
            writeInSquare(
                ["-\(10 + 5 * (random.next() % 6)) %"],
                x: 0.62,
                y: 0.16,
                w: 0.14,
                h: 0.06,
                size: 0.03,
                ink: white,
                paper: red,
                canvas: &canvas
            )
        }
        writeInSquare(
            lines(1, words: 2...3, from: productWords, random: &random),
            x: 0.1,
            y: 0.6,
            w: 0.8,
            h: 0.1,
            size: 0.05,
            ink: ink,
            paper: white,
            canvas: &canvas
        )
        writeInSquare(
            ["€ \(5 + random.next() % 95).\(random.next() % 10)9"],
            x: 0.1,
            y: 0.7,
            w: 0.5,
            h: 0.1,
            size: 0.062,
            ink: green,
            paper: white,
            canvas: &canvas
        )
        // The rating's stars and the colour swatches.
        let stars = 2 + Int(random.next() % 4)
        for star in 0..<5 {
            let centre = inSquare(canvas, x: 0.13 + Double(star) * 0.05, y: 0.815, w: 0, h: 0)
            let colour = star < stars ? TestJPEG.Colour(236, 170, 30) : TestJPEG.Colour(210, 210, 206)
            canvas.disc(x: centre.x, y: centre.y, radius: 0.018, colour: colour)
        }
        for swatch in 0..<3 {
            let centre = inSquare(canvas, x: 0.64 + Double(swatch) * 0.08, y: 0.815, w: 0, h: 0)
            let colour = hsv(hue: random.unit() * 360, saturation: 0.35 + random.unit() * 0.5, value: 0.75)
            canvas.disc(x: centre.x, y: centre.y, radius: 0.026, colour: colour)
        }
        fillSquare(0.1, 0.865, 0.8, 0.08, green, canvas: &canvas)
        writeInSquare(
            ["add to basket"],
            x: 0.33,
            y: 0.87,
            w: 0.5,
            h: 0.07,
            size: 0.04,
            ink: white,
            paper: green,
            canvas: &canvas
        )
    }

    private static func minimal(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let (side, _, _) = widgetSquare(canvas)
        let paper = TestJPEG.Colour(250, 250, 247)
        let (hairline, ink) = (TestJPEG.Colour(176, 176, 170), TestJPEG.Colour(96, 96, 92))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        fillSquare(0.06, 0.06, 0.88, 0.003, hairline, canvas: &canvas)
        fillSquare(0.06, 0.937, 0.88, 0.003, hairline, canvas: &canvas)
        fillSquare(0.06, 0.06, 0.003, 0.88, hairline, canvas: &canvas)
        fillSquare(0.937, 0.06, 0.003, 0.88, hairline, canvas: &canvas)
        writeInSquare(
            ["no. \(seed + 1)"],
            x: 0.08,
            y: 0.08,
            w: 0.3,
            h: 0.06,
            size: 0.03,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        // The disc of a photo part no other member shows, at one of six places.
        let place = (seed + seed / 24) % 6
        let (x, y) = ([0.3, 0.5, 0.7][place % 3], [0.36, 0.64][place / 3])
        let centre = inSquare(canvas, x: x, y: y, w: 0, h: 0)
        var mask = Canvas(width: width, height: height)
        mask.disc(x: centre.x, y: centre.y, radius: 0.12, colour: TestJPEG.Colour(255, 255, 255))
        let box = side * 26 / 100
        paste(
            photoThird(corpusPhotos[(seed * 11 + 2) % 24], part: seed / 24 % 3, width: box, height: box),
            side: box,
            left: Int(centre.x * Double(width)) - box / 2,
            top: Int(centre.y * Double(height)) - box / 2,
            where: mask,
            canvas: &canvas
        )
        let words = ["still", "quiet", "morning", "field", "notes", "light", "after", "rain", "slow", "days", "north"]
        writeInSquare(
            lines(1, words: 2...3, from: words, random: &random),
            x: 0.08,
            y: 0.86,
            w: 0.6,
            h: 0.06,
            size: 0.028,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
    }

    /// The three-letter names the `scoreboard` family's teams go by.
    private static let teamNames = [
        "ars", "bel", "cor", "dun", "eve", "fal", "gra", "hul", "ips", "kil", "lyn", "mor", "nor", "ost", "pal", "rov",
    ]

    private static func scoreboard(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        canvas.paste(
            photoThird(corpusPhotos[(seed * 7 + 1) % 24], part: seed / 24 % 3, width: width, height: height),
            channels: 4,
            width: width,
            height: height,
            left: 0,
            top: 0
        )
        let (white, navy) = (TestJPEG.Colour(255, 255, 255), TestJPEG.Colour(12, 18, 44))
        // The broadcaster's mark, top right, and the score bar, bottom left: two teams, their colours and scores, the
        // period and the clock.
        veilSquare(0.74, 0.04, 0.22, 0.07, white, alpha: 0.55, canvas: &canvas)
        inkInSquare(["sport 2"], x: 0.755, y: 0.045, w: 0.2, h: 0.06, size: 0.035, ink: navy, canvas: &canvas)
        veilSquare(0.04, 0.79, 0.7, 0.12, navy, alpha: 0.86, canvas: &canvas)
        let first = Int(random.next() % UInt64(teamNames.count))
        let second = (first + 1 + Int(random.next() % UInt64(teamNames.count - 1))) % teamNames.count
        for (slot, team) in [first, second].enumerated() {
            let x = 0.06 + Double(slot) * 0.28
            fillSquare(
                x,
                0.82,
                0.018,
                0.07,
                hsv(hue: Double(team) * 22.5, saturation: 0.85, value: 0.95),
                canvas: &canvas
            )
            inkInSquare(
                [teamNames[team]],
                x: x + 0.03,
                y: 0.8,
                w: 0.14,
                h: 0.1,
                size: 0.045,
                ink: white,
                canvas: &canvas
            )
            inkInSquare(
                ["\(random.next() % 6)"],
                x: x + 0.17,
                y: 0.8,
                w: 0.1,
                h: 0.1,
                size: 0.045,
                ink: white,
                canvas: &canvas
            )
        }
        fillSquare(0.61, 0.79, 0.13, 0.12, TestJPEG.Colour(240, 200, 40), canvas: &canvas)
        let (minute, seconds) = (random.next() % 90, random.next() % 60)
        inkInSquare(
            ["\(minute):\(seconds < 10 ? "0" : "")\(seconds)"],
            x: 0.615,
            y: 0.805,
            w: 0.125,
            h: 0.09,
            size: 0.032,
            ink: navy,
            canvas: &canvas
        )
    }

    private static func planner(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let paper = TestJPEG.Colour(248, 246, 240)
        let (ink, faint) = (TestJPEG.Colour(40, 40, 44), TestJPEG.Colour(150, 150, 150))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        // The month's photo, a part no other member shows, and under it the month's name and year.
        pasteThird(
            corpusPhotos[(seed * 13 + 7 + seed / 24) % 24],
            part: seed / 24 % 3,
            width: side * 88 / 100,
            height: side * 40 / 100,
            x: 0.06,
            y: 0.05,
            canvas: &canvas
        )
        let months = [
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december",
        ]
        writeInSquare(
            ["\(months[(seed + 4 * (seed / 24)) % 12]) \(2024 + random.next() % 6)"],
            x: 0.06,
            y: 0.455,
            w: 0.7,
            h: 0.085,
            size: 0.042,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        // The grid of days: the month starts on a seeded weekday; two to four seeded days are marked.
        let start = Int(random.next() % 7)
        let days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][(seed + 4 * (seed / 24)) % 12]
        let marked = (0..<(2 + Int(random.next() % 3))).map { _ in 1 + Int(random.next() % UInt64(days)) }
        let mark = hsv(hue: Double(random.next() % 360), saturation: 0.7, value: 0.9)
        for (column, day) in ["m", "t", "w", "t", "f", "s", "s"].enumerated() {
            inkInSquare(
                [day],
                x: 0.08 + Double(column) * 0.125,
                y: 0.54,
                w: 0.08,
                h: 0.05,
                size: 0.03,
                ink: faint,
                canvas: &canvas
            )
        }
        for day in 1...days {
            let cell = start + day - 1
            let (x, y) = (0.07 + Double(cell % 7) * 0.125, 0.6 + Double(cell / 7) * 0.065)
            if marked.contains(day) {
                let centre = inSquare(canvas, x: x + 0.03, y: y + 0.028, w: 0, h: 0)
                canvas.disc(x: centre.x, y: centre.y, radius: 0.03, colour: mark)
            }
            inkInSquare(["\(day)"], x: x + 0.005, y: y, w: 0.09, h: 0.06, size: 0.032, ink: ink, canvas: &canvas)
        }
    }

    /// The names the `callgrid` family's callers show.
    private static let callerNames = [
        "anna", "ben k", "chloe", "dev", "emil", "farah", "gus", "hana", "ivo", "june", "kofi", "lena", "mats", "nora",
    ]

    private static func callgrid(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let (white, panel) = (TestJPEG.Colour(255, 255, 255), TestJPEG.Colour(32, 33, 36))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: panel)
        // The speaker, large, and three callers in a strip below: each a photo part, the speaker's shown by no other
        // member, each small tile's by no other member in that tile.
        var tiles: [(x: Double, y: Double, w: Double, h: Double, photo: Int, part: Int)] = [
            (0.03, 0.03, 0.94, 0.56, (seed * 5 + 11) % 24, seed / 24 % 3)
        ]
        for k in 0..<3 {
            let photo = (seed % 24 + 8 * k + 2) % 24
            tiles.append((0.03 + Double(k) * 0.32, 0.62, 0.3, 0.22, photo, (seed / 24 + k + 1) % 3))
        }
        for tile in tiles {
            pasteThird(
                corpusPhotos[tile.photo],
                part: tile.part,
                width: Int(tile.w * Double(side)),
                height: Int(tile.h * Double(side)),
                x: tile.x,
                y: tile.y,
                canvas: &canvas
            )
            veilSquare(tile.x + 0.01, tile.y + tile.h - 0.055, 0.16, 0.045, panel, alpha: 0.7, canvas: &canvas)
            inkInSquare(
                [callerNames[Int(random.next() % UInt64(callerNames.count))]],
                x: tile.x + 0.015,
                y: tile.y + tile.h - 0.058,
                w: 0.15,
                h: 0.05,
                size: 0.03,
                ink: white,
                canvas: &canvas
            )
        }
        // The speaker's green frame and the toolbar: a seeded number of red (muted) and grey buttons, the red hang-up.
        for (x, y, w, h) in [
            (0.03, 0.03, 0.94, 0.006), (0.03, 0.584, 0.94, 0.006), (0.03, 0.03, 0.006, 0.56),
            (0.964, 0.03, 0.006, 0.56),
        ] {
            fillSquare(x, y, w, h, TestJPEG.Colour(60, 200, 110), canvas: &canvas)
        }
        for button in 0..<4 {
            let centre = inSquare(canvas, x: 0.3 + Double(button) * 0.13, y: 0.92, w: 0, h: 0)
            let muted = button == 3 || random.next() % 2 == 0
            canvas.disc(
                x: centre.x,
                y: centre.y,
                radius: 0.04,
                colour: muted ? TestJPEG.Colour(220, 50, 50) : TestJPEG.Colour(72, 74, 80)
            )
            canvas.disc(x: centre.x, y: centre.y, radius: 0.012, colour: white)
        }
    }

    private static func beforeAfter(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        // Two photo parts side by side, each shown on its side by no other member.
        let half = width / 2
        canvas.paste(
            photoThird(corpusPhotos[(seed * 5 + 1) % 24], part: seed / 24 % 3, width: half, height: height),
            channels: 4,
            width: half,
            height: height,
            left: 0,
            top: 0
        )
        canvas.paste(
            photoThird(
                corpusPhotos[(seed * 7 + 4) % 24],
                part: (seed / 24 + 1) % 3,
                width: width - half,
                height: height
            ),
            channels: 4,
            width: width - half,
            height: height,
            left: half,
            top: 0
        )
        // The divider with its round handle, and the two sides' seeded labels.
        let white = TestJPEG.Colour(255, 255, 255)
        fillSquare(0.495, 0, 0.01, 1, white, canvas: &canvas)
        let centre = inSquare(canvas, x: 0.5, y: 0.5, w: 0, h: 0)
        canvas.disc(x: centre.x, y: centre.y, radius: 0.045, colour: white)
        canvas.disc(x: centre.x, y: centre.y, radius: 0.03, colour: TestJPEG.Colour(60, 60, 66))
        let labels = [["before", "after"], ["then", "now"], ["2019", "2024"], ["day 1", "day 90"]]
        let pair = labels[Int(random.next() % UInt64(labels.count))]
        for (slot, label) in pair.enumerated() {
            let x = 0.04 + Double(slot) * 0.5
            veilSquare(x, 0.05, 0.2, 0.065, TestJPEG.Colour(0, 0, 0), alpha: 0.55, canvas: &canvas)
            inkInSquare([label], x: x + 0.015, y: 0.05, w: 0.19, h: 0.065, size: 0.035, ink: white, canvas: &canvas)
        }
    }

    private static func vignette(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let (side, squareLeft, top) = widgetSquare(canvas)
        // A photo part no other member shows, darkened towards the edges of the widget's square (a heavy vignette:
        // full level at its centre, 8 % beyond 0.55 of its side from the centre).
        let scene = photoThird(
            corpusPhotos[(seed * 11 + 5 + seed / 24) % 24],
            part: seed / 24 % 3,
            width: width,
            height: height
        )
        let centre = (x: Double(squareLeft) + 0.5 * Double(side), y: Double(top) + 0.5 * Double(side))
        for index in 0..<(width * height) {
            let dx = (Double(index % width) - centre.x) / Double(side)
            let dy = (Double(index / width) - centre.y) / Double(side)
            let gain = 1 - 0.92 * min(1, (dx * dx + dy * dy) / (0.55 * 0.55))
            func shaded(_ channel: Int) -> UInt8 { UInt8((Double(scene[index * 4 + channel]) * gain).rounded()) }
            canvas.set(index % width, index / width, TestJPEG.Colour(shaded(0), shaded(1), shaded(2)))
        }
        // A small bright subject in the dark edge: a disc of another photo part no other member shows, lifted (each
        // channel 60 + 80 % of its level), at the (n mod 8)th of eight places round the square's edge.
        let places = [
            (0.14, 0.14), (0.5, 0.12), (0.86, 0.14), (0.88, 0.5), (0.86, 0.86), (0.5, 0.88), (0.14, 0.86),
            (0.12, 0.5),
        ]
        let place = places[(seed + 3 * (seed / 24)) % 8]
        let at = inSquare(canvas, x: place.0, y: place.1, w: 0, h: 0)
        var mask = Canvas(width: width, height: height)
        mask.disc(x: at.x, y: at.y, radius: 0.075, colour: TestJPEG.Colour(255, 255, 255))
        let box = side * 16 / 100
        paste(
            photoThird(
                corpusPhotos[(seed * 13 + 9 + 5 * (seed / 24)) % 24],
                part: (seed / 24 + 2) % 3,
                width: box,
                height: box
            ),
            side: box,
            left: Int(at.x * Double(width)) - box / 2,
            top: Int(at.y * Double(height)) - box / 2,
            where: mask,
            offset: 60,
            gain: 0.8,
            canvas: &canvas
        )
    }

    /// The number of corpus photos the newest families choose among, and the photo of member `seed`: the
    /// ((`step` n + `shift` + `turn` (n / 24)) mod 24)th, with `step` prime to 24, so the 24 members of one third
    /// each show another photo and members n, n + 24 and n + 48 show thirds of other photos.
    private static func memberPhoto(_ seed: Int, step: Int, shift: Int, turn: Int) -> String {
        corpusPhotos[(seed * step + shift + turn * (seed / 24)) % 24]
    }

    /// A seeded item of `list`.
    private static func pick(_ list: [String], _ random: inout SeededRandom) -> String {
        list[Int(random.next() % UInt64(list.count))]
    }

    private static func polaroid(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        // The desk, the same in every member: eight warm brown boards with dark seams.
        let boards = [TestJPEG.Colour(122, 78, 46), TestJPEG.Colour(136, 90, 54), TestJPEG.Colour(112, 70, 40)]
        for board in 0..<8 {
            let y = Double(board) / 8
            canvas.rectangle(x: 0, y: y, width: 1, height: 0.125, colour: boards[board % 3])
            canvas.rectangle(x: 0, y: y, width: 1, height: 0.004, colour: TestJPEG.Colour(70, 42, 24))
        }
        // The print and its shadow; its window shows a photo part no other member shows.
        fillSquare(0.155, 0.065, 0.72, 0.86, TestJPEG.Colour(64, 38, 20), canvas: &canvas)
        let white = TestJPEG.Colour(250, 250, 246)
        fillSquare(0.14, 0.05, 0.72, 0.86, white, canvas: &canvas)
        pasteThird(
            memberPhoto(seed, step: 17, shift: 3, turn: 7),
            part: seed / 24 % 3,
            width: side * 62 / 100,
            height: side * 56 / 100,
            x: 0.19,
            y: 0.1,
            canvas: &canvas
        )
        let places = [
            "lisbon", "oslo", "kyoto", "the lake", "grandma's", "quito", "bruges", "camp", "home", "cadiz", "the pier",
            "tallinn",
        ]
        writeInSquare(
            ["\(pick(places, &random)) \(1998 + random.next() % 26)"],
            x: 0.19,
            y: 0.72,
            w: 0.62,
            h: 0.1,
            size: 0.05,
            ink: TestJPEG.Colour(34, 52, 140),
            paper: white,
            canvas: &canvas
        )
    }

    private static func story(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let white = TestJPEG.Colour(255, 255, 255)
        canvas.gradient(from: TestJPEG.Colour(88, 40, 150), to: TestJPEG.Colour(246, 140, 70))
        // The progress segments: the ones up to the seeded current one white, the rest faint.
        let segments = 3 + Int(random.next() % 5)
        let current = Int(random.next() % UInt64(segments))
        let width = (0.92 - 0.01 * Double(segments - 1)) / Double(segments)
        for segment in 0..<segments {
            let x = 0.04 + Double(segment) * (width + 0.01)
            veilSquare(x, 0.03, width, 0.008, white, alpha: segment <= current ? 0.95 : 0.4, canvas: &canvas)
        }
        // The account: an initial on a disc of a seeded colour, and its name.
        let names = ["mira.k", "tom_b", "sunny", "jo.walks", "ravi", "elke", "nadia.r", "pablo", "quinn", "yuki_t"]
        let name = pick(names, &random)
        let avatar = inSquare(canvas, x: 0.085, y: 0.085, w: 0, h: 0)
        canvas.disc(
            x: avatar.x,
            y: avatar.y,
            radius: 0.035,
            colour: hsv(hue: Double(random.next() % 360), saturation: 0.6, value: 0.9)
        )
        inkInSquare(
            [String(name.prefix(1))],
            x: 0.07,
            y: 0.06,
            w: 0.04,
            h: 0.05,
            size: 0.035,
            ink: white,
            canvas: &canvas
        )
        inkInSquare([name], x: 0.14, y: 0.058, w: 0.5, h: 0.06, size: 0.035, ink: white, canvas: &canvas)
        // The card of a photo part no other member shows, in a white border.
        fillSquare(0.15, 0.15, 0.7, 0.44, white, canvas: &canvas)
        pasteThird(
            memberPhoto(seed, step: 19, shift: 5, turn: 5),
            part: seed / 24 % 3,
            width: side * 68 / 100,
            height: side * 42 / 100,
            x: 0.16,
            y: 0.16,
            canvas: &canvas
        )
        let words = [
            "best", "day", "ever", "finally", "here", "with", "you", "sunday", "mood", "never", "again", "so", "good",
            "look", "at", "this", "guess", "where",
        ]
        inkInSquare(
            lines(2, words: 2...3, from: words, random: &random),
            x: 0.08,
            y: 0.63,
            w: 0.84,
            h: 0.22,
            size: 0.06,
            ink: white,
            canvas: &canvas
        )
        veilSquare(0.06, 0.88, 0.72, 0.07, white, alpha: 0.25, canvas: &canvas)
        inkInSquare(["send message"], x: 0.09, y: 0.89, w: 0.6, h: 0.05, size: 0.03, ink: white, canvas: &canvas)
        let heart = inSquare(canvas, x: 0.88, y: 0.915, w: 0, h: 0)
        canvas.disc(x: heart.x, y: heart.y, radius: 0.03, colour: white)
    }

    private static func recipe(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let (side, _, _) = widgetSquare(canvas)
        let paper = TestJPEG.Colour(252, 246, 232)
        let (ink, terracotta) = (TestJPEG.Colour(60, 44, 36), TestJPEG.Colour(196, 98, 62))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        fillSquare(0, 0, 1, 0.1, terracotta, canvas: &canvas)
        inkInSquare(
            ["from our kitchen"],
            x: 0.05,
            y: 0.02,
            w: 0.9,
            h: 0.07,
            size: 0.04,
            ink: TestJPEG.Colour(255, 255, 255),
            canvas: &canvas
        )
        // The plate, and on it a disc of a photo part no other member shows.
        let centre = inSquare(canvas, x: 0.3, y: 0.38, w: 0, h: 0)
        canvas.disc(x: centre.x, y: centre.y, radius: 0.255, colour: TestJPEG.Colour(196, 196, 190))
        canvas.disc(x: centre.x, y: centre.y, radius: 0.25, colour: TestJPEG.Colour(250, 250, 250))
        var mask = Canvas(width: width, height: height)
        mask.disc(x: centre.x, y: centre.y, radius: 0.22, colour: TestJPEG.Colour(255, 255, 255))
        let box = side * 46 / 100
        paste(
            photoThird(memberPhoto(seed, step: 5, shift: 13, turn: 11), part: seed / 24 % 3, width: box, height: box),
            side: box,
            left: Int(centre.x * Double(width)) - box / 2,
            top: Int(centre.y * Double(height)) - box / 2,
            where: mask,
            canvas: &canvas
        )
        // The dish's name, servings and minutes, and five ingredients.
        let kinds = ["smoky", "lemon", "garden", "spiced", "creamy", "harvest", "ginger", "rustic", "herby", "sweet"]
        let dishes = ["stew", "salad", "tart", "risotto", "curry", "soup", "pasta", "gratin", "tacos", "bowl"]
        writeInSquare(
            [pick(kinds, &random), pick(dishes, &random)],
            x: 0.58,
            y: 0.16,
            w: 0.4,
            h: 0.2,
            size: 0.05,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        writeInSquare(
            ["serves \(2 + random.next() % 5)", "\(15 + 5 * (random.next() % 12)) min"],
            x: 0.58,
            y: 0.4,
            w: 0.4,
            h: 0.14,
            size: 0.034,
            ink: terracotta,
            paper: paper,
            canvas: &canvas
        )
        let foods = [
            "onion", "garlic", "rice", "beans", "tomato", "basil", "butter", "flour", "lentils", "carrot", "lime",
            "feta", "chili", "thyme", "olive oil", "stock",
        ]
        let ingredients = (0..<5).map { _ in
            "- \(1 + random.next() % 4) \(pick(["cup", "tbsp", "g x100", "pc"], &random)) \(pick(foods, &random))"
        }
        writeInSquare(
            ingredients,
            x: 0.06,
            y: 0.67,
            w: 0.9,
            h: 0.3,
            size: 0.036,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
    }

    private static func badge(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(200, 202, 206))
        // The lanyard's strap and clip, the card and its shadow.
        fillSquare(0.44, 0, 0.12, 0.1, TestJPEG.Colour(26, 40, 90), canvas: &canvas)
        fillSquare(0.465, 0.08, 0.07, 0.05, TestJPEG.Colour(170, 172, 178), canvas: &canvas)
        fillSquare(0.175, 0.125, 0.66, 0.84, TestJPEG.Colour(150, 150, 156), canvas: &canvas)
        let white = TestJPEG.Colour(255, 255, 255)
        fillSquare(0.16, 0.11, 0.66, 0.84, white, canvas: &canvas)
        // The header band of a seeded department, and the slot for the clip.
        let departments = ["design", "research", "support", "facilities", "finance", "press", "security", "labs"]
        let department = Int(random.next() % UInt64(departments.count))
        fillSquare(
            0.16,
            0.11,
            0.66,
            0.1,
            hsv(hue: Double(department) * 45, saturation: 0.75, value: 0.7),
            canvas: &canvas
        )
        fillSquare(0.44, 0.125, 0.1, 0.018, TestJPEG.Colour(200, 202, 206), canvas: &canvas)
        inkInSquare(
            [departments[department]],
            x: 0.19,
            y: 0.145,
            w: 0.6,
            h: 0.06,
            size: 0.038,
            ink: white,
            canvas: &canvas
        )
        // The portrait, a photo part no other member shows, the name, the role and the barcode.
        pasteThird(
            memberPhoto(seed, step: 7, shift: 17, turn: 13),
            part: seed / 24 % 3,
            width: side * 40 / 100,
            height: side * 36 / 100,
            x: 0.29,
            y: 0.24,
            canvas: &canvas
        )
        let first = [
            "ada", "bruno", "celia", "dmitri", "esther", "femi", "greta", "hugo", "ines", "jonas", "kira", "liam",
        ]
        let last = ["okafor", "lindqvist", "moreau", "tanaka", "silva", "novak", "haddad", "brennan", "ito", "vega"]
        let roles = ["engineer", "visitor", "contractor", "manager", "intern", "analyst", "technician"]
        writeInSquare(
            ["\(pick(first, &random)) \(pick(last, &random))"],
            x: 0.19,
            y: 0.62,
            w: 0.6,
            h: 0.07,
            size: 0.045,
            ink: TestJPEG.Colour(30, 30, 36),
            paper: white,
            canvas: &canvas
        )
        writeInSquare(
            [pick(roles, &random)],
            x: 0.19,
            y: 0.7,
            w: 0.6,
            h: 0.06,
            size: 0.032,
            ink: TestJPEG.Colour(120, 120, 128),
            paper: white,
            canvas: &canvas
        )
        var x = 0.22
        var bar = true
        while x < 0.76 {
            let w = 0.004 * Double(1 + random.next() % 3)
            if bar { fillSquare(x, 0.8, w, 0.1, TestJPEG.Colour(0, 0, 0), canvas: &canvas) }
            x += w
            bar.toggle()
        }
    }

    private static func stamp(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, squareLeft, top) = widgetSquare(canvas)
        let envelope = TestJPEG.Colour(244, 240, 228)
        let (face, ink) = (TestJPEG.Colour(252, 252, 248), TestJPEG.Colour(40, 40, 60))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: envelope)
        // The stamp, its perforated edge (discs of the envelope's colour along each side) and its picture, a photo
        // part no other member shows.
        fillSquare(0.22, 0.1, 0.56, 0.54, face, canvas: &canvas)
        for step in 0...14 {
            let along = Double(step) / 14
            for (x, y) in [
                (0.22 + 0.56 * along, 0.1), (0.22 + 0.56 * along, 0.64), (0.22, 0.1 + 0.54 * along),
                (0.78, 0.1 + 0.54 * along),
            ] {
                let at = inSquare(canvas, x: x, y: y, w: 0, h: 0)
                canvas.disc(x: at.x, y: at.y, radius: 0.011, colour: envelope)
            }
        }
        pasteThird(
            memberPhoto(seed, step: 23, shift: 7, turn: 17),
            part: seed / 24 % 3,
            width: side * 48 / 100,
            height: side * 40 / 100,
            x: 0.26,
            y: 0.14,
            canvas: &canvas
        )
        let countries = ["helvetia", "eire", "norge", "polska", "suomi", "portugal", "island", "danmark", "ceska"]
        writeInSquare(
            ["\(20 + 5 * (random.next() % 30))c  \(pick(countries, &random))"],
            x: 0.26,
            y: 0.55,
            w: 0.48,
            h: 0.085,
            size: 0.036,
            ink: TestJPEG.Colour(150, 30, 40),
            paper: face,
            canvas: &canvas
        )
        // The postmark over the stamp's right edge: a ring with a seeded town and date, and four wavy cancel lines.
        let towns = ["ghent", "bergen", "lyon", "turku", "krakow", "porto", "basel", "cork", "aarhus", "brno"]
        let (ringX, ringY, ring) = (
            Double(squareLeft) + 0.8 * Double(side), Double(top) + 0.24 * Double(side), 0.1 * Double(side)
        )
        for row in Int(ringY - ring)...Int(ringY + ring) {
            for column in Int(ringX - ring)...Int(ringX + ring) {
                let distance =
                    ((Double(column) - ringX) * (Double(column) - ringX)
                    + (Double(row) - ringY) * (Double(row) - ringY)).squareRoot()
                if distance <= ring, distance >= ring - 3 { canvas.blend(column, row, ink, 0.8) }
            }
        }
        inkInSquare(
            [pick(towns, &random), "\(1 + random.next() % 28).\(1 + random.next() % 12).\(random.next() % 30)"],
            x: 0.725,
            y: 0.185,
            w: 0.16,
            h: 0.12,
            size: 0.026,
            ink: ink,
            canvas: &canvas
        )
        for line in 0..<4 {
            let base = Double(top) + (0.36 + 0.05 * Double(line)) * Double(side)
            for column in (squareLeft + side * 58 / 100)..<(squareLeft + side * 98 / 100) {
                let wave = base + 0.012 * Double(side) * sin(Double(column - squareLeft) / Double(side) * 40)
                for thickness in 0..<3 { canvas.blend(column, Int(wave) + thickness, ink, 0.75) }
            }
        }
        let streets = ["elm st", "harbour rd", "mill lane", "king st", "park ave", "station rd", "bay view"]
        writeInSquare(
            [
                "\(pick(["m.", "j.", "a.", "r.", "s."], &random)) \(pick(["hale", "ortiz", "berg", "quist", "nair"], &random))",
                "\(1 + random.next() % 99) \(pick(streets, &random))",
            ],
            x: 0.08,
            y: 0.74,
            w: 0.6,
            h: 0.2,
            size: 0.045,
            ink: ink,
            paper: envelope,
            canvas: &canvas
        )
    }

    private static func magazine(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let (white, red) = (TestJPEG.Colour(255, 255, 255), TestJPEG.Colour(214, 28, 44))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(246, 244, 240))
        // The cover photo, a photo part no other member shows, over the whole square.
        pasteThird(
            memberPhoto(seed, step: 11, shift: 1, turn: 5),
            part: seed / 24 % 3,
            width: side,
            height: side,
            x: 0,
            y: 0,
            canvas: &canvas
        )
        inkInSquare(["horizon"], x: 0.05, y: 0.0, w: 0.9, h: 0.2, size: 0.11, ink: red, canvas: &canvas)
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        inkInSquare(
            ["issue \(1 + random.next() % 90)  \(pick(months, &random)) \(2019 + random.next() % 8)"],
            x: 0.06,
            y: 0.2,
            w: 0.6,
            h: 0.05,
            size: 0.03,
            ink: white,
            canvas: &canvas
        )
        let words = [
            "the", "new", "wild", "summer", "secret", "cities", "coast", "guide", "best", "winter", "road", "trip",
            "inside", "quiet", "islands", "taste", "of", "north", "light", "ten", "hidden", "trails",
        ]
        inkInSquare(
            lines(1, words: 2...3, from: words, random: &random),
            x: 0.06,
            y: 0.62,
            w: 0.9,
            h: 0.12,
            size: 0.075,
            ink: white,
            canvas: &canvas
        )
        inkInSquare(
            lines(2, words: 3...4, from: words, random: &random),
            x: 0.06,
            y: 0.76,
            w: 0.9,
            h: 0.14,
            size: 0.04,
            ink: TestJPEG.Colour(255, 214, 40),
            canvas: &canvas
        )
        let price = inSquare(canvas, x: 0.86, y: 0.3, w: 0, h: 0)
        canvas.disc(x: price.x, y: price.y, radius: 0.07, colour: red)
        inkInSquare(
            ["$\(4 + random.next() % 6).99"],
            x: 0.79,
            y: 0.28,
            w: 0.15,
            h: 0.05,
            size: 0.032,
            ink: white,
            canvas: &canvas
        )
    }

    private static func homescreen(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let white = TestJPEG.Colour(255, 255, 255)
        // The wallpaper, the same in every member, and the status bar.
        pasteBackdrop("11-bythewater.jpg", canvas: &canvas)
        veilSquare(0, 0, 1, 0.05, TestJPEG.Colour(0, 0, 0), alpha: 0.35, canvas: &canvas)
        let (hour, minute) = (random.next() % 24, random.next() % 60)
        let time = "\(hour):\(minute < 10 ? "0" : "")\(minute)"
        inkInSquare([time], x: 0.04, y: 0, w: 0.2, h: 0.05, size: 0.022, ink: white, canvas: &canvas)
        // The photo widget: a photo part no other member shows, in a white border.
        fillSquare(0.05, 0.08, 0.44, 0.44, white, canvas: &canvas)
        pasteThird(
            memberPhoto(seed, step: 13, shift: 9, turn: 7),
            part: seed / 24 % 3,
            width: side * 42 / 100,
            height: side * 42 / 100,
            x: 0.06,
            y: 0.09,
            canvas: &canvas
        )
        // The clock widget.
        veilSquare(0.53, 0.08, 0.42, 0.44, white, alpha: 0.3, canvas: &canvas)
        inkInSquare([time], x: 0.56, y: 0.1, w: 0.38, h: 0.2, size: 0.08, ink: white, canvas: &canvas)
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        inkInSquare(
            [pick(days, &random), "\(1 + random.next() % 28) \(pick(months, &random))"],
            x: 0.57,
            y: 0.3,
            w: 0.37,
            h: 0.2,
            size: 0.035,
            ink: white,
            canvas: &canvas
        )
        // Eight app icons and a dock of four, the same in every member.
        let names = ["mail", "maps", "notes", "music", "photos", "clock", "store", "files"]
        for (index, name) in names.enumerated() {
            let (x, y) = (0.07 + Double(index % 4) * 0.23, 0.56 + Double(index / 4) * 0.15)
            fillSquare(
                x,
                y,
                0.15,
                0.09,
                hsv(hue: Double(index) * 45 + 10, saturation: 0.7, value: 0.85),
                canvas: &canvas
            )
            inkInSquare([name], x: x - 0.02, y: y + 0.09, w: 0.2, h: 0.05, size: 0.022, ink: white, canvas: &canvas)
        }
        veilSquare(0.04, 0.87, 0.92, 0.11, white, alpha: 0.3, canvas: &canvas)
        for index in 0..<4 {
            fillSquare(
                0.1 + Double(index) * 0.22,
                0.885,
                0.14,
                0.08,
                hsv(hue: Double(index) * 90 + 200, saturation: 0.6, value: 0.9),
                canvas: &canvas
            )
        }
    }

    private static func placecard(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let white = TestJPEG.Colour(255, 255, 255)
        // The map, the same in every member: a beige ground, a park, a river and a grid of white streets.
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(238, 233, 222))
        fillSquare(0.58, 0.06, 0.3, 0.2, TestJPEG.Colour(176, 214, 160), canvas: &canvas)
        fillSquare(0, 0.3, 1, 0.05, TestJPEG.Colour(150, 192, 232), canvas: &canvas)
        for street in 0..<6 {
            fillSquare(0.04 + Double(street) * 0.18, 0, 0.018, 0.5, white, canvas: &canvas)
        }
        for street in 0..<3 { fillSquare(0, 0.02 + Double(street) * 0.14, 1, 0.016, white, canvas: &canvas) }
        // The pin at a seeded place.
        let pin = inSquare(canvas, x: 0.1 + 0.8 * random.unit(), y: 0.08 + 0.28 * random.unit(), w: 0, h: 0)
        canvas.box(
            x: pin.x,
            y: pin.y + 0.03,
            halfWidth: 0.012,
            halfHeight: 0.03,
            angle: 0,
            colour: TestJPEG.Colour(150, 20, 24)
        )
        canvas.disc(x: pin.x, y: pin.y, radius: 0.035, colour: TestJPEG.Colour(220, 40, 44))
        canvas.disc(x: pin.x, y: pin.y, radius: 0.013, colour: white)
        // The card: its photo, a photo part no other member shows, the name, kind, rating, distance and button.
        fillSquare(0.025, 0.495, 0.95, 0.49, TestJPEG.Colour(200, 198, 192), canvas: &canvas)
        fillSquare(0.02, 0.49, 0.95, 0.49, white, canvas: &canvas)
        pasteThird(
            memberPhoto(seed, step: 19, shift: 21, turn: 3),
            part: seed / 24 % 3,
            width: side * 40 / 100,
            height: side * 40 / 100,
            x: 0.05,
            y: 0.53,
            canvas: &canvas
        )
        let first = ["old", "blue", "north", "little", "grand", "silver", "green", "harbour", "stone", "sunset"]
        let second = ["market", "garden", "tower", "bakery", "bridge", "museum", "bay", "hall", "park", "cafe"]
        let ink = TestJPEG.Colour(32, 34, 40)
        writeInSquare(
            ["\(pick(first, &random)) \(pick(second, &random))"],
            x: 0.48,
            y: 0.53,
            w: 0.48,
            h: 0.12,
            size: 0.045,
            ink: ink,
            paper: white,
            canvas: &canvas
        )
        let kinds = ["landmark", "restaurant", "viewpoint", "gallery", "beach", "shop", "station", "hotel"]
        writeInSquare(
            [
                pick(kinds, &random), "\(3 + random.next() % 2).\(random.next() % 10)  (\(10 + random.next() % 990))",
                "\(random.next() % 9).\(random.next() % 10) km",
            ],
            x: 0.48,
            y: 0.69,
            w: 0.48,
            h: 0.15,
            size: 0.034,
            ink: TestJPEG.Colour(110, 112, 120),
            paper: white,
            canvas: &canvas
        )
        let blue = TestJPEG.Colour(40, 110, 220)
        fillSquare(0.48, 0.86, 0.44, 0.08, blue, canvas: &canvas)
        inkInSquare(["directions"], x: 0.55, y: 0.872, w: 0.36, h: 0.06, size: 0.036, ink: white, canvas: &canvas)
    }

    private static func stub(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let ground = TestJPEG.Colour(30, 32, 40)
        let (cream, ink) = (TestJPEG.Colour(248, 240, 220), TestJPEG.Colour(40, 30, 30))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        fillSquare(0.04, 0.16, 0.92, 0.68, cream, canvas: &canvas)
        // The photo strip, a photo part no other member shows.
        pasteThird(
            memberPhoto(seed, step: 7, shift: 5, turn: 19),
            part: seed / 24 % 3,
            width: side * 30 / 100,
            height: side * 68 / 100,
            x: 0.04,
            y: 0.16,
            canvas: &canvas
        )
        // The tear line: notches at its ends and holes along it.
        for step in 0...16 {
            let hole = inSquare(canvas, x: 0.74, y: 0.16 + 0.68 * Double(step) / 16, w: 0, h: 0)
            canvas.disc(x: hole.x, y: hole.y, radius: step == 0 || step == 16 ? 0.03 : 0.006, colour: ground)
        }
        let first = ["midnight", "velvet", "paper", "neon", "silent", "golden", "echo", "wild", "lunar", "glass"]
        let second = ["tigers", "harbour", "choir", "rivers", "parade", "engines", "hearts", "foxes", "static"]
        writeInSquare(
            [pick(first, &random), pick(second, &random)],
            x: 0.37,
            y: 0.2,
            w: 0.35,
            h: 0.2,
            size: 0.058,
            ink: ink,
            paper: cream,
            canvas: &canvas
        )
        let venues = ["the roundhouse", "pier hall", "arena north", "the lantern", "city theatre", "dock 9"]
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        writeInSquare(
            [
                pick(venues, &random),
                "\(1 + random.next() % 28) \(pick(months, &random)) 20\(10 + random.next() % 17)",
                "doors \(6 + random.next() % 3):\(random.next() % 2 == 0 ? "00" : "30") pm",
            ],
            x: 0.37,
            y: 0.44,
            w: 0.35,
            h: 0.2,
            size: 0.032,
            ink: TestJPEG.Colour(120, 60, 50),
            paper: cream,
            canvas: &canvas
        )
        writeInSquare(
            ["row \(pick(["a", "c", "f", "h", "k", "m"], &random))  seat \(1 + random.next() % 40)"],
            x: 0.37,
            y: 0.7,
            w: 0.35,
            h: 0.08,
            size: 0.036,
            ink: ink,
            paper: cream,
            canvas: &canvas
        )
        // The stub's barcode: seeded bars across it.
        var y = 0.2
        var bar = true
        while y < 0.8 {
            let h = 0.005 * Double(1 + random.next() % 3)
            if bar { fillSquare(0.78, y, 0.14, h, ink, canvas: &canvas) }
            y += h
            bar.toggle()
        }
    }

    private static func nightcam(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, left, top) = widgetSquare(canvas)
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: TestJPEG.Colour(0, 0, 0))
        // The scene, a photo part no other member shows, in dim green with darker scan lines.
        pasteThird(
            memberPhoto(seed, step: 5, shift: 3, turn: 13),
            part: seed / 24 % 3,
            width: side,
            height: side,
            x: 0,
            y: 0,
            canvas: &canvas
        )
        for row in top..<(top + side) {
            for column in left..<(left + side) {
                let offset = (row * canvas.width + column) * 3
                let grey =
                    0.3 * Double(canvas.pixels[offset]) + 0.59 * Double(canvas.pixels[offset + 1]) + 0.11
                    * Double(canvas.pixels[offset + 2])
                let green = (8 + 0.7 * grey) * (row % 4 == 0 ? 0.8 : 1)
                let other = UInt8((0.3 * green).rounded())
                canvas.set(column, row, TestJPEG.Colour(other, UInt8(green.rounded()), other))
            }
        }
        let white = TestJPEG.Colour(236, 240, 236)
        inkInSquare(
            ["cam \(1 + random.next() % 16)  \(pick(["gate", "yard", "lot b", "dock", "lobby", "roof"], &random))"],
            x: 0.04,
            y: 0.03,
            w: 0.6,
            h: 0.06,
            size: 0.04,
            ink: white,
            canvas: &canvas
        )
        let (hour, minute, second) = (random.next() % 6, random.next() % 60, random.next() % 60)
        func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        inkInSquare(
            [
                "20\(20 + random.next() % 7)-\(two(1 + random.next() % 12))-\(two(1 + random.next() % 28))  "
                    + "\(two(hour)):\(two(minute)):\(two(second))"
            ],
            x: 0.3,
            y: 0.9,
            w: 0.68,
            h: 0.07,
            size: 0.04,
            ink: white,
            canvas: &canvas
        )
        let dot = inSquare(canvas, x: 0.93, y: 0.06, w: 0, h: 0)
        canvas.disc(x: dot.x, y: dot.y, radius: 0.02, colour: TestJPEG.Colour(230, 30, 30))
    }

    private static func haze(seed: Int, canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        let (side, _, _) = widgetSquare(canvas)
        let veil = [196.0, 200, 206]
        // The stretch of the panorama, under the haze.
        let scene = framing(
            "19-picosdeeuropa.jpg",
            columns: 6,
            rows: 2,
            stride: 0.55,
            index: seed % 12,
            width: width,
            height: height
        )
        for index in 0..<(width * height) {
            func hazed(_ channel: Int) -> UInt8 {
                UInt8((veil[channel] * 0.62 + Double(scene[index * 4 + channel]) * 0.38).rounded())
            }
            canvas.set(index % width, index / width, TestJPEG.Colour(hazed(0), hazed(1), hazed(2)))
        }
        // The subject near the viewer: a photo part no other member shows, in a tall ellipse, clearer than the distance.
        let (boxWidth, boxHeight) = (side * 24 / 100, side * 34 / 100)
        let place = seed / 12 % 6
        let (left, top) = pixelInSquare(
            canvas,
            x: 0.08 + 0.3 * Double(place % 3),
            y: 0.12 + 0.44 * Double(place / 3)
        )
        let subject = photoThird(
            memberPhoto(seed, step: 17, shift: 11, turn: 5),
            part: seed / 24 % 3,
            width: boxWidth,
            height: boxHeight
        )
        let (radiusX, radiusY) = (Double(boxWidth) / 2, Double(boxHeight) / 2)
        for row in 0..<boxHeight {
            for column in 0..<boxWidth {
                let (dx, dy) = ((Double(column) + 0.5 - radiusX) / radiusX, (Double(row) + 0.5 - radiusY) / radiusY)
                guard dx * dx + dy * dy <= 1 else { continue }
                let source = (row * boxWidth + column) * 4
                func clearer(_ channel: Int) -> UInt8 {
                    UInt8((veil[channel] * 0.2 + Double(subject[source + channel]) * 0.8).rounded())
                }
                canvas.set(left + column, top + row, TestJPEG.Colour(clearer(0), clearer(1), clearer(2)))
            }
        }
    }

    private static func appstore(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let (white, ground) = (TestJPEG.Colour(255, 255, 255), TestJPEG.Colour(246, 247, 249))
        let (dark, grey) = (TestJPEG.Colour(32, 34, 40), TestJPEG.Colour(110, 114, 122))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        // The store's bar, the same in every member.
        fillSquare(0, 0, 1, 0.08, white, canvas: &canvas)
        writeInSquare(
            ["apps   games   books   kids"],
            x: 0.05,
            y: 0.018,
            w: 0.7,
            h: 0.05,
            size: 0.03,
            ink: TestJPEG.Colour(30, 130, 80),
            paper: white,
            canvas: &canvas
        )
        fillSquare(0, 0.08, 1, 0.004, TestJPEG.Colour(218, 220, 226), canvas: &canvas)
        // The app: its icon of a seeded hue with its initial, its name, developer, rating and reviews.
        let first = [
            "pocket", "bright", "trail", "cloud", "pixel", "quiet", "swift", "lucky", "tiny", "north", "sunny",
        ]
        let second = [
            "notes", "camera", "maps", "budget", "garden", "tuner", "recipes", "weather", "reader", "fitness",
        ]
        let name = "\(pick(first, &random)) \(pick(second, &random))"
        fillSquare(
            0.05,
            0.11,
            0.18,
            0.18,
            hsv(hue: Double(random.next() % 360), saturation: 0.75, value: 0.85),
            canvas: &canvas
        )
        inkInSquare(
            [String(name.prefix(1))],
            x: 0.08,
            y: 0.1,
            w: 0.15,
            h: 0.19,
            size: 0.09,
            ink: white,
            canvas: &canvas
        )
        writeInSquare(
            [name],
            x: 0.27,
            y: 0.105,
            w: 0.7,
            h: 0.085,
            size: 0.045,
            ink: dark,
            paper: ground,
            canvas: &canvas
        )
        let makers = ["lumen labs", "oakwood apps", "bluefin studio", "tern software", "mosaic works", "kite & co"]
        writeInSquare(
            [
                pick(makers, &random),
                "\(3 + random.next() % 2).\(random.next() % 10)   \(1 + random.next() % 900)k reviews   "
                    + "\(1 + random.next() % 99) mb",
            ],
            x: 0.27,
            y: 0.19,
            w: 0.7,
            h: 0.11,
            size: 0.03,
            ink: grey,
            paper: ground,
            canvas: &canvas
        )
        fillSquare(0.05, 0.32, 0.9, 0.07, TestJPEG.Colour(30, 150, 90), canvas: &canvas)
        inkInSquare(["install"], x: 0.42, y: 0.325, w: 0.3, h: 0.06, size: 0.03, ink: white, canvas: &canvas)
        // Two screenshots in phone frames: photo parts no other member shows in that frame.
        let shots = [
            (memberPhoto(seed, step: 23, shift: 2, turn: 7), seed / 24 % 3),
            (memberPhoto(seed, step: 5, shift: 13, turn: 11), (seed / 24 + 1) % 3),
        ]
        for (index, shot) in shots.enumerated() {
            let x = 0.05 + Double(index) * 0.47
            fillSquare(x, 0.42, 0.43, 0.5, TestJPEG.Colour(28, 28, 32), canvas: &canvas)
            pasteThird(
                shot.0,
                part: shot.1,
                width: side * 39 / 100,
                height: side * 44 / 100,
                x: x + 0.02,
                y: 0.45,
                canvas: &canvas
            )
        }
        let words = [
            "plan", "your", "day", "with", "easy", "sync", "across", "devices", "offline", "mode", "share", "lists",
            "track", "every", "step", "dark", "theme", "widgets", "free", "trial",
        ]
        writeInSquare(
            lines(1, words: 5...7, from: words, random: &random),
            x: 0.05,
            y: 0.935,
            w: 0.9,
            h: 0.05,
            size: 0.03,
            ink: grey,
            paper: ground,
            canvas: &canvas
        )
    }

    private static func gallery(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        // The wall, the skirting board and the floor, the same in every member.
        canvas.gradient(from: TestJPEG.Colour(216, 208, 194), to: TestJPEG.Colour(188, 180, 166))
        fillSquare(0, 0.84, 1, 0.3, TestJPEG.Colour(122, 86, 56), canvas: &canvas)
        fillSquare(0, 0.83, 1, 0.014, TestJPEG.Colour(242, 238, 230), canvas: &canvas)
        // The three frames: place, size, colour and mat; frame k shows a picture no other member shows in it, and no
        // two members show parts of one photo in two frames (members n and n + 24 would with one turn for all three).
        let frames: [(x: Double, y: Double, w: Double, h: Double, colour: TestJPEG.Colour, mat: Double)] = [
            (0.05, 0.18, 0.26, 0.36, TestJPEG.Colour(196, 156, 64), 0.025),
            (0.36, 0.08, 0.3, 0.52, TestJPEG.Colour(26, 24, 24), 0.04),
            (0.71, 0.22, 0.24, 0.3, TestJPEG.Colour(170, 128, 84), 0.02),
        ]
        for (index, frame) in frames.enumerated() {
            fillSquare(
                frame.x + 0.008,
                frame.y + 0.012,
                frame.w,
                frame.h,
                TestJPEG.Colour(150, 142, 130),
                canvas: &canvas
            )
            fillSquare(frame.x, frame.y, frame.w, frame.h, frame.colour, canvas: &canvas)
            let border = 0.018
            fillSquare(
                frame.x + border,
                frame.y + border,
                frame.w - 2 * border,
                frame.h - 2 * border,
                TestJPEG.Colour(246, 244, 238),
                canvas: &canvas
            )
            let inner = border + frame.mat
            pasteThird(
                corpusPhotos[(seed % 24 + 8 * index + 3 + [1, 7, 11][index] * (seed / 24)) % 24],
                part: (seed / 24 + index) % 3,
                width: Int((frame.w - 2 * inner) * Double(side)),
                height: Int((frame.h - 2 * inner) * Double(side)),
                x: frame.x + inner,
                y: frame.y + inner,
                canvas: &canvas
            )
        }
        // The wall label under the middle frame: a seeded title and year.
        let label = TestJPEG.Colour(250, 250, 247)
        fillSquare(0.42, 0.65, 0.18, 0.07, label, canvas: &canvas)
        let first = ["morning", "study", "harbour", "the", "field", "still", "river", "evening", "garden", "portrait"]
        let second = ["light", "in blue", "at rest", "orchard", "no. 4", "life", "bend", "walk", "wall", "of a friend"]
        writeInSquare(
            ["\(pick(first, &random)) \(pick(second, &random))", "\(1850 + random.next() % 170)"],
            x: 0.425,
            y: 0.655,
            w: 0.17,
            h: 0.06,
            size: 0.018,
            ink: TestJPEG.Colour(50, 48, 46),
            paper: label,
            canvas: &canvas
        )
    }

    private static func frontpage(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, _, _) = widgetSquare(canvas)
        let (paper, ink) = (TestJPEG.Colour(238, 234, 222), TestJPEG.Colour(28, 26, 24))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: paper)
        // The masthead and its rules, the same in every member; the edition line is the member's.
        writeInSquare(
            ["the morning ledger"],
            x: 0.05,
            y: 0.005,
            w: 0.9,
            h: 0.107,
            size: 0.065,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        fillSquare(0.04, 0.112, 0.92, 0.006, ink, canvas: &canvas)
        fillSquare(0.04, 0.158, 0.92, 0.003, ink, canvas: &canvas)
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        writeInSquare(
            [
                "vol. \(10 + random.next() % 90)  no. \(1 + random.next() % 365)   \(pick(days, &random)) "
                    + "\(1 + random.next() % 28) \(pick(months, &random)) \(1990 + random.next() % 36)   "
                    + "\(1 + random.next() % 3).\(random.next() % 10)0"
            ],
            x: 0.05,
            y: 0.121,
            w: 0.9,
            h: 0.035,
            size: 0.022,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        writeInSquare(
            lines(2, words: 2...3, from: headlineWords, random: &random),
            x: 0.05,
            y: 0.17,
            w: 0.9,
            h: 0.17,
            size: 0.058,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        // The lead photo, a photo part no other member shows, printed grey on the newsprint.
        let (photoWidth, photoHeight) = (side * 56 / 100, side * 36 / 100)
        let lead = photoThird(
            memberPhoto(seed, step: 13, shift: 4, turn: 17),
            part: seed / 24 % 3,
            width: photoWidth,
            height: photoHeight
        )
        let (left, top) = pixelInSquare(canvas, x: 0.05, y: 0.36)
        for row in 0..<photoHeight {
            for column in 0..<photoWidth {
                let source = (row * photoWidth + column) * 4
                let grey =
                    0.3 * Double(lead[source]) + 0.59 * Double(lead[source + 1]) + 0.11 * Double(lead[source + 2])
                canvas.set(
                    left + column,
                    top + row,
                    TestJPEG.Colour(
                        UInt8((12 + 0.9 * grey).rounded()),
                        UInt8((11 + 0.88 * grey).rounded()),
                        UInt8((10 + 0.84 * grey).rounded())
                    )
                )
            }
        }
        let grey = TestJPEG.Colour(90, 86, 80)
        writeInSquare(
            lines(1, words: 4...6, from: headlineWords, random: &random),
            x: 0.05,
            y: 0.73,
            w: 0.56,
            h: 0.035,
            size: 0.02,
            ink: grey,
            paper: paper,
            canvas: &canvas
        )
        // Columns of small type: one beside the photo, three below, with rules between them.
        writeInSquare(
            lines(13, words: 3...4, from: headlineWords, random: &random),
            x: 0.64,
            y: 0.36,
            w: 0.32,
            h: 0.4,
            size: 0.02,
            ink: ink,
            paper: paper,
            canvas: &canvas
        )
        fillSquare(0.04, 0.775, 0.92, 0.002, ink, canvas: &canvas)
        for column in 0..<3 {
            let x = 0.05 + 0.31 * Double(column)
            writeInSquare(
                lines(6, words: 3...4, from: headlineWords, random: &random),
                x: x,
                y: 0.79,
                w: 0.29,
                h: 0.2,
                size: 0.02,
                ink: ink,
                paper: paper,
                canvas: &canvas
            )
            if column > 0 { fillSquare(x - 0.012, 0.79, 0.002, 0.19, grey, canvas: &canvas) }
        }
    }

    private static func thumbnail(seed: Int, random: inout SeededRandom, canvas: inout Canvas) {
        let (side, left, top) = widgetSquare(canvas)
        let (ground, white) = (TestJPEG.Colour(15, 15, 17), TestJPEG.Colour(250, 250, 250))
        let (red, grey) = (TestJPEG.Colour(220, 30, 36), TestJPEG.Colour(150, 150, 156))
        canvas.rectangle(x: 0, y: 0, width: 1, height: 1, colour: ground)
        // The frame, a photo part no other member shows, 16:9 across the square.
        pasteThird(
            memberPhoto(seed, step: 19, shift: 6, turn: 1),
            part: seed / 24 % 3,
            width: side,
            height: side * 9 / 16,
            x: 0,
            y: 0.03,
            canvas: &canvas
        )
        // The channel's banner, the same in every member.
        veilSquare(0, 0.03, 0.44, 0.075, red, alpha: 0.88, canvas: &canvas)
        inkInSquare(["trailside tv"], x: 0.01, y: 0.03, w: 0.43, h: 0.07, size: 0.036, ink: white, canvas: &canvas)
        // The title over the frame in large outlined words, the duration and the progress bar.
        let words = [
            "we", "found", "the", "lost", "lake", "hidden", "trail", "alone", "for", "days", "best", "camp", "ever",
            "storm", "night", "summit", "why", "nobody", "goes", "here",
        ]
        canvas.overlay(
            lines(1, words: 2...3, from: words, random: &random),
            left: left + side * 4 / 100,
            top: top + side * 36 / 100,
            height: side * 13 / 100,
            pixelSize: side * 8 / 100
        )
        let duration = "\(1 + random.next() % 59):\(random.next() % 6)\(random.next() % 10)"
        fillSquare(0.8, 0.515, 0.17, 0.055, TestJPEG.Colour(0, 0, 0), canvas: &canvas)
        inkInSquare([duration], x: 0.805, y: 0.508, w: 0.16, h: 0.062, size: 0.028, ink: white, canvas: &canvas)
        fillSquare(0, 0.5925, 1, 0.012, TestJPEG.Colour(80, 80, 84), canvas: &canvas)
        fillSquare(0, 0.5925, 0.1 + 0.85 * random.unit(), 0.012, red, canvas: &canvas)
        // Below: the channel's avatar, a seeded two-line title, the channel's name, views and age.
        let avatar = inSquare(canvas, x: 0.08, y: 0.7, w: 0, h: 0)
        canvas.disc(x: avatar.x, y: avatar.y, radius: 0.05, colour: red)
        inkInSquare(["t"], x: 0.045, y: 0.63, w: 0.07, h: 0.1, size: 0.05, ink: white, canvas: &canvas)
        writeInSquare(
            lines(2, words: 3...5, from: words, random: &random),
            x: 0.16,
            y: 0.65,
            w: 0.82,
            h: 0.14,
            size: 0.045,
            ink: white,
            paper: ground,
            canvas: &canvas
        )
        writeInSquare(
            ["trailside tv", "\(1 + random.next() % 999)k views   \(1 + random.next() % 11) months ago"],
            x: 0.16,
            y: 0.8,
            w: 0.82,
            h: 0.12,
            size: 0.034,
            ink: grey,
            paper: ground,
            canvas: &canvas
        )
    }

    /// An sRGB colour from hue (degrees), saturation and value (0…1).
    private static func hsv(hue: Double, saturation: Double, value: Double) -> TestJPEG.Colour {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let c = value * saturation
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) =
            switch Int(h) {
            case 0: (c, x, 0)
            case 1: (x, c, 0)
            case 2: (0, c, x)
            case 3: (0, x, c)
            case 4: (x, 0, c)
            default: (c, 0, x)
            }
        let m = value - c
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, ((v + m) * 255).rounded()))) }
        return TestJPEG.Colour(byte(r), byte(g), byte(b))
    }

    /// A 64-bit generator (SplitMix64): one seed, one sequence, on every machine.
    private struct SeededRandom {
        var state: UInt64

        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }

        /// A sequence of its own for every seed: `init(seed:)` of seed n + 1 is seed n's sequence one number on, so
        /// the later families start from seed n's first number instead.
        init(scrambling seed: Int) {
            var first = SeededRandom(seed: UInt64(truncatingIfNeeded: seed))
            self.init(seed: first.next())
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

        mutating func colour() -> TestJPEG.Colour {
            TestJPEG.Colour(UInt8(next() >> 56), UInt8(next() >> 56), UInt8(next() >> 56))
        }
    }

    /// Packed RGB pixels with a few drawing operations in relative coordinates.
    private struct Canvas {
        let width: Int
        let height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            self.pixels = [UInt8](repeating: 0, count: width * height * 3)
        }

        mutating func set(_ x: Int, _ y: Int, _ colour: TestJPEG.Colour) {
            let offset = (y * width + x) * 3
            pixels[offset] = colour.red
            pixels[offset + 1] = colour.green
            pixels[offset + 2] = colour.blue
        }

        /// A vertical gradient over `rows` (fractions of the height) and `columns` (of the width).
        mutating func gradient(
            from top: TestJPEG.Colour,
            to bottom: TestJPEG.Colour,
            rows: ClosedRange<Double> = 0...1,
            columns: ClosedRange<Double> = 0...1
        ) {
            let first = Int(rows.lowerBound * Double(height))
            let last = max(first + 1, Int(rows.upperBound * Double(height)))
            for y in first..<min(height, last) {
                let t = Double(y - first) / Double(max(1, last - first - 1))
                func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(Double(a) + (Double(b) - Double(a)) * t) }
                let colour = TestJPEG.Colour(
                    mix(top.red, bottom.red),
                    mix(top.green, bottom.green),
                    mix(top.blue, bottom.blue)
                )
                for x in Int(columns.lowerBound * Double(width))..<Int(columns.upperBound * Double(width)) {
                    set(x, y, colour)
                }
            }
        }

        /// `pixels` (`width`×`height`, rows packed, `channels` bytes a pixel, red, green and blue first) placed with
        /// their top left at `(left, top)`.
        mutating func paste(_ pixels: [UInt8], channels: Int, width: Int, height: Int, left: Int, top: Int) {
            for row in 0..<height {
                for column in 0..<width {
                    let source = (row * width + column) * channels
                    set(
                        left + column,
                        top + row,
                        TestJPEG.Colour(pixels[source], pixels[source + 1], pixels[source + 2])
                    )
                }
            }
        }

        mutating func disc(x: Double, y: Double, radius: Double, colour: TestJPEG.Colour) {
            let scale = Double(min(width, height))
            let (cx, cy, r) = (x * Double(width), y * Double(height), radius * scale)
            // A disc that lies wholly outside the canvas (the map's river may bend off it) draws nothing.
            let (top, bottom) = (max(0, Int(cy - r)), min(height, Int(cy + r) + 1))
            let (left, right) = (max(0, Int(cx - r)), min(width, Int(cx + r) + 1))
            guard top < bottom, left < right else { return }
            for row in top..<bottom {
                for column in left..<right {
                    let (dx, dy) = (Double(column) - cx, Double(row) - cy)
                    if dx * dx + dy * dy <= r * r { set(column, row, colour) }
                }
            }
        }

        /// A filled ellipse centred at `(x, y)` (fractions of the width and height), radii in units of the shorter
        /// side, turned by `angle` (radians).
        mutating func ellipse(
            x: Double,
            y: Double,
            radiusX: Double,
            radiusY: Double,
            angle: Double,
            colour: TestJPEG.Colour
        ) {
            fill(x: x, y: y, reach: max(radiusX, radiusY), angle: angle, colour: colour) { u, v in
                (u / radiusX) * (u / radiusX) + (v / radiusY) * (v / radiusY) <= 1
            }
        }

        /// A filled rectangle centred at `(x, y)`, half sizes in units of the shorter side, turned by `angle`.
        mutating func box(
            x: Double,
            y: Double,
            halfWidth: Double,
            halfHeight: Double,
            angle: Double,
            colour: TestJPEG.Colour
        ) {
            fill(
                x: x,
                y: y,
                reach: (halfWidth * halfWidth + halfHeight * halfHeight).squareRoot(),
                angle: angle,
                colour: colour
            ) { u, v in
                abs(u) <= halfWidth && abs(v) <= halfHeight
            }
        }

        /// Every pixel within `reach` (of the shorter side) of `(x, y)` whose coordinates, turned back by `angle`,
        /// pass `inside`.
        private mutating func fill(
            x: Double,
            y: Double,
            reach: Double,
            angle: Double,
            colour: TestJPEG.Colour,
            inside: (Double, Double) -> Bool
        ) {
            let scale = Double(min(width, height))
            let (cx, cy, r) = (x * Double(width), y * Double(height), reach * scale)
            let (cosine, sine) = (cos(angle), sin(angle))
            for row in max(0, Int(cy - r))..<max(0, min(height, Int(cy + r) + 1)) {
                for column in max(0, Int(cx - r))..<max(0, min(width, Int(cx + r) + 1)) {
                    let (dx, dy) = ((Double(column) + 0.5 - cx) / scale, (Double(row) + 0.5 - cy) / scale)
                    if inside(dx * cosine + dy * sine, -dx * sine + dy * cosine) { set(column, row, colour) }
                }
            }
        }

        /// A soft beam of `colour` from the top at `top` (a fraction of the width) widening down to a pool of
        /// light on the floor (at 80 % of the height) centred at `floor`, added to what is there.
        mutating func beam(top: Double, floor: Double, colour: TestJPEG.Colour, strength: Double) {
            let floorY = 0.8 * Double(height)
            for row in 0..<height {
                let t = min(1, Double(row) / floorY)
                let centre = (top + (floor - top) * t) * Double(width)
                let half = (0.02 + 0.1 * t) * Double(width)
                for column in 0..<width {
                    let across = abs(Double(column) - centre) / half
                    var light = across < 1 ? (1 - across * across) * strength * (0.5 + 0.5 * t) : 0
                    let (px, py) = (
                        (Double(column) - floor * Double(width)) / (0.14 * Double(width)),
                        (Double(row) - floorY) / (0.035 * Double(height))
                    )
                    let pool = px * px + py * py
                    if pool < 1 { light += (1 - pool) * 0.8 }
                    guard light > 0 else { continue }
                    let offset = (row * width + column) * 3
                    for (channel, value) in [colour.red, colour.green, colour.blue].enumerated() {
                        pixels[offset + channel] = UInt8(
                            min(255, Double(pixels[offset + channel]) + Double(value) * light)
                        )
                    }
                }
            }
        }

        /// `lines` in white with a black outline over the canvas, in a box `height` rows high from `(left, top)` to
        /// the right margin (as `left`), drawn with the project's font stack at `pixelSize`.
        mutating func overlay(_ lines: [String], left: Int, top: Int, height h: Int, pixelSize: Int) {
            let w = width - 2 * left
            guard
                let mask = FontStack.graphic(
                    lines,
                    width: w,
                    height: h,
                    pixelSize: pixelSize,
                    ink: [255, 255, 255],
                    paper: [0, 0, 0]
                )
            else { return }
            let reach = max(1, pixelSize / 14)
            for row in 0..<h where top + row >= 0 && top + row < height {
                for column in 0..<w {
                    var outline = 0
                    for dy in -reach...reach where row + dy >= 0 && row + dy < h {
                        for dx in -reach...reach where column + dx >= 0 && column + dx < w {
                            outline = max(outline, Int(mask[((row + dy) * w + column + dx) * 4]))
                        }
                    }
                    let ink = Double(mask[(row * w + column) * 4]) / 255
                    let offset = ((top + row) * width + left + column) * 3
                    for channel in 0..<3 {
                        let dark = Double(pixels[offset + channel]) * (1 - Double(outline) / 255)
                        pixels[offset + channel] = UInt8(min(255, (dark * (1 - ink) + 255 * ink).rounded()))
                    }
                }
            }
        }

        /// `colour` laid over the pixel at `(x, y)` with `alpha` (0…1) of cover.
        mutating func blend(_ x: Int, _ y: Int, _ colour: TestJPEG.Colour, _ alpha: Double) {
            let offset = (y * width + x) * 3
            func mix(_ under: UInt8, _ over: UInt8) -> UInt8 {
                UInt8((Double(under) * (1 - alpha) + Double(over) * alpha).rounded())
            }
            pixels[offset] = mix(pixels[offset], colour.red)
            pixels[offset + 1] = mix(pixels[offset + 1], colour.green)
            pixels[offset + 2] = mix(pixels[offset + 2], colour.blue)
        }

        mutating func rectangle(x: Double, y: Double, width w: Double, height h: Double, colour: TestJPEG.Colour) {
            for row in max(0, Int(y * Double(height)))..<min(height, Int((y + h) * Double(height))) {
                for column in max(0, Int(x * Double(width)))..<min(width, Int((x + w) * Double(width))) {
                    set(column, row, colour)
                }
            }
        }
    }
}
