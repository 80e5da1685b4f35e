#!/usr/bin/env bash
# The image benchmarks' corpus: 24 real photographs from Debian 12's wallpaper packages, a few of them made
# progressive, baseline or EXIF-rotated without re-encoding (jpegtran, exiftool), and one very large photo apart.
# The packages are pinned to the versions the figures in bench/README.md were measured with; sha256 sums of the
# result go to OUT.sha256 so two machines' corpora can be compared.
# Usage: bench/corpus.sh [OUT]   (default /tmp/kfeed-corpus; the large photo in OUT-large; packages in /tmp/kfeed-pkgs)
set -euo pipefail
out="${1:-/tmp/kfeed-corpus}"
pkgs=/tmp/kfeed-pkgs
export DEBIAN_FRONTEND=noninteractive
command -v jpegtran >/dev/null && command -v exiftool >/dev/null ||
  apt-get install -y -qq libjpeg-turbo-progs libimage-exiftool-perl >/dev/null

# package=version, unpacked once into $pkgs/root
mkdir -p "$pkgs/root"
for pinned in lomiri-wallpapers-16.04=20.04.0-2 lomiri-wallpapers-20.04=20.04.0-2 mate-backgrounds=1.26.0-1 \
  plasma-workspace-wallpapers=4:5.27.5-2; do
  package="${pinned%%=*}"
  [ -e "$pkgs/root/.$package" ] && continue
  (cd "$pkgs" && { ls "${package}"_*.deb >/dev/null 2>&1 || apt-get download "$pinned" >/dev/null 2>&1 ||
    apt-get download "$package" >/dev/null; })
  dpkg -x "$(ls "$pkgs/${package}"_*.deb | head -1)" "$pkgs/root"
  touch "$pkgs/root/.$package"
done

bg="$pkgs/root/usr/share/backgrounds"
mate="$bg/mate/nature"
plasma="$pkgs/root/usr/share/wallpapers"
# corpus name, what is done to it (copy, progressive, baseline, orientation N), source
photos="
01-picture1a.jpg copy $bg/Picture_1A_by_freespace.jpg
02-greenmeadow.jpg copy $mate/GreenMeadow.jpg
03-freshflower.jpg copy $mate/FreshFlower.jpg
04-dune.jpg copy $mate/Dune.jpg
05-blinds-o3.jpg orientation3 $mate/Blinds.jpg
06-raindrops-o8.jpg orientation8 $mate/RainDrops.jpg
07-storm-prog.jpg progressive $mate/Storm.jpg
08-friends.jpg copy $bg/friends_by_Aitzol_Berasategi.jpg
09-picture0b.jpg copy $bg/Picture_0B_by_freespace.jpg
10-ladybird-prog.jpg progressive $mate/LadyBird.jpg
11-bythewater.jpg copy $plasma/BytheWater/contents/images/2560x1600.jpg
12-colorfulcups.jpg copy $plasma/ColorfulCups/contents/images/2560x1600.jpg
13-fallenleaf.jpg copy $plasma/FallenLeaf/contents/images/2560x1600.jpg
14-summer1am.jpg copy $plasma/summer_1am/contents/images/2560x1600.jpg
15-wine.jpg copy $bg/Wine_by_Jakkub_Mede.jpg
16-free.jpg copy $bg/free_by_Peter_Nerlich.jpg
17-aitzgorri.jpg copy $bg/aitzgorri_by_Aitzol_Berasategi.jpg
18-life-base.jpg baseline $bg/life_by_Aitzol_Berasategi.jpg
19-picosdeeuropa.jpg copy $bg/picosdeeuropa_by_Aitzol_Berasategi.jpg
20-dragonfly-o6.jpg orientation6 $bg/Dragonfly_by_Bolly.jpg
21-sunset.jpg copy $bg/sunset_by_Aitzol_Berasategi.jpg
22-bridge.jpg copy $bg/Bridge_by_Sander_Klootwijk.jpg
23-infinitesea.jpg copy $bg/Infinite-Sea_by_Aury88.jpg
24-seeding.jpg copy $bg/seeding_by_Clements_Engelhardt.jpg
"
large="large-kleiber-6028x3391.jpg copy $bg/Kleiber_by_Lukas_Baubkus.jpg"

make_photo() { # DEST HOW SOURCE
  case "$2" in
    copy) cp "$3" "$1" ;;
    progressive) jpegtran -copy all -progressive -outfile "$1" "$3" ;;
    baseline) jpegtran -copy all -outfile "$1" "$3" ;;
    orientation*) cp "$3" "$1" && exiftool -q -overwrite_original -n "-Orientation=${2#orientation}" "$1" ;;
  esac
}
rm -rf "$out" "$out-large"
mkdir -p "$out" "$out-large"
while read -r name how source; do
  [ -n "$name" ] && make_photo "$out/$name" "$how" "$source"
done <<<"$photos"
read -r name how source <<<"$large"
make_photo "$out-large/$name" "$how" "$source"
{ (cd "$out" && sha256sum ./*.jpg); (cd "$out-large" && sha256sum ./*.jpg); } >"$out.sha256"
echo "corpus: $(ls "$out" | wc -l) photos in $out, the large one in $out-large; sha256 sums in $out.sha256"
