"""The sources of the image server's benchmarks (serve-bench.sh, serve-misses-bench.sh): 1,000
different 640x480 crops of the corpus' photographs at different scales, JPEG quality 85, written
to WWW/jpeg/0000.jpg ... 0999.jpg, and the corpus' 4000x3000 baseline JPEG copied to WWW/big.jpg.
Needs Pillow.

    python serve-sources.py CORPUS WWW
"""
import shutil
import sys

from PIL import Image

corpus, www = sys.argv[1:]
photos = [Image.open(f"{corpus}/src/{name}-orig.jpg").convert("RGB") for name in ("kleiber", "ladybird", "garden")]
for i in range(1000):
    photo = photos[i % 3]
    scale = 0.5 + (i % 7) / 6 * (min(photo.width / 640, photo.height / 480) - 0.5)
    width, height = round(640 * scale), round(480 * scale)
    left = (i * 7919) % (photo.width - width + 1)
    top = (i * 104729) % (photo.height - height + 1)
    crop = photo.crop((left, top, left + width, top + height)).resize((640, 480), Image.LANCZOS)
    crop.save(f"{www}/jpeg/{i:04d}.jpg", quality=85)
shutil.copyfile(f"{corpus}/jpeg/kleiber-4000x3000-q85-baseline.jpg", f"{www}/big.jpg")
