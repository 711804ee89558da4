#!/usr/bin/env python3
"""Times WebImage's transformers against Pillow and pyvips doing the same work, in one run.

Each case runs in rounds; a round times `webimage bench transform` (its own minimum over
--iterations runs, in a subprocess), then Pillow, then pyvips, each --iterations times on
the same decoded RGBA8 pixels. The reported time per side is the minimum over all rounds,
so the three sides see the same machine noise. Decoding is never timed.

Usage: transform_peers.py --webimage .build/release/webimage --plugin-path DIR [--iterations 10] [--rounds 5]
"""

import argparse
import json
import subprocess
import time

import PIL
import pyvips
from PIL import Image, ImageChops, ImageDraw, ImageFilter


def best_of(function, iterations):
    """The fastest of `iterations` calls of `function`, in milliseconds."""
    fastest = float("inf")
    for _ in range(iterations):
        start = time.perf_counter()
        function()
        fastest = min(fastest, (time.perf_counter() - start) * 1000)
    return fastest


def pillow_image(path):
    image = Image.open(path).convert("RGBA")
    image.load()
    return image


def vips_image(path):
    image = pyvips.Image.new_from_file(path)
    if image.bands == 3:
        image = image.bandjoin(255)
    return image.copy_memory()


def vips_round_corner_mask(width, height, radius):
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
        f'<rect width="{width}" height="{height}" rx="{radius}" ry="{radius}" fill="#fff"/></svg>'
    )
    return pyvips.Image.svgload_buffer(svg.encode())[3]


def cases(corpus):
    """(name, input file, webimage spec, {peer label: (kind, function of the loaded image)})."""
    resize_jpeg = f"{corpus}/jpeg/kleiber-4000x3000-q85-baseline.jpg"
    rgba_png = f"{corpus}/png/kleiber-1920x1080-rgba8.png"
    return [
        (
            "resize 4000x3000 -> 800x600",
            resize_jpeg,
            ["resize:800x600:fill"],
            {
                "Pillow resize BOX": ("pillow", lambda im: im.resize((800, 600), Image.Resampling.BOX)),
                "Pillow resize LANCZOS": ("pillow", lambda im: im.resize((800, 600), Image.Resampling.LANCZOS)),
                "pyvips shrink 5 (box)": ("vips", lambda im: im.shrink(5, 5).write_to_memory()),
                "pyvips resize 0.2 (lanczos3)": ("vips", lambda im: im.resize(0.2).write_to_memory()),
            },
        ),
        (
            "blur radius 10 on 1920x1080 RGBA",
            rgba_png,
            ["blur:10"],
            {
                "Pillow GaussianBlur premultiplied": (
                    "pillow",
                    lambda im: im.convert("RGBa").filter(ImageFilter.GaussianBlur(10)).convert("RGBA"),
                ),
                "Pillow GaussianBlur straight": ("pillow", lambda im: im.filter(ImageFilter.GaussianBlur(10))),
                "pyvips gaussblur premultiplied": (
                    "vips",
                    lambda im: im.premultiply().gaussblur(10).unpremultiply().cast("uchar").write_to_memory(),
                ),
                "pyvips gaussblur straight": ("vips", lambda im: im.gaussblur(10).write_to_memory()),
            },
        ),
        (
            "round corner radius 40 on 1920x1080 RGBA",
            rgba_png,
            ["round-corner:40"],
            {
                "Pillow rounded_rectangle mask": ("pillow", pillow_round_corner),
                "pyvips SVG mask": ("vips", vips_round_corner),
            },
        ),
    ]


def pillow_round_corner(image):
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, image.width - 1, image.height - 1), radius=40, fill=255)
    result = image.copy()
    result.putalpha(ImageChops.multiply(image.getchannel("A"), mask))
    return result


def vips_round_corner(image):
    mask = vips_round_corner_mask(image.width, image.height, 40)
    alpha = (image[3] * mask / 255).cast("uchar")
    return image[0:3].bandjoin(alpha).write_to_memory()


def webimage_time(arguments, path, specs, iterations):
    command = [arguments.webimage, "bench", "transform", path, "--iterations", str(iterations), "--json"]
    for spec in specs:
        command += ["--transform", spec]
    for folder in arguments.plugin_path:
        command += ["--plugin-path", folder]
    report = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return report["min_ms"], report["transformer_key"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--webimage", required=True)
    parser.add_argument("--plugin-path", action="append", default=[])
    parser.add_argument("--corpus", default="/tmp/corpus")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    vips_version = ".".join(str(pyvips.version(part)) for part in range(3))
    print(f"Pillow {PIL.__version__}, libvips {vips_version}, vips threads {pyvips.vips_lib.vips_concurrency_get()}")
    print("| Case | WebImage min ms | Peer | Peer min ms | WebImage / peer |")
    print("|---|---|---|---|---|")
    for name, path, specs, peers in cases(arguments.corpus):
        loaded = {"pillow": pillow_image(path), "vips": vips_image(path)}
        best = {label: float("inf") for label in peers}
        webimage_best = float("inf")
        key = ""
        for label, (kind, function) in peers.items():
            function(loaded[kind])
        for _ in range(arguments.rounds):
            milliseconds, key = webimage_time(arguments, path, specs, arguments.iterations)
            webimage_best = min(webimage_best, milliseconds)
            for label, (kind, function) in peers.items():
                image = loaded[kind]
                best[label] = min(best[label], best_of(lambda: function(image), arguments.iterations))
        for label, milliseconds in best.items():
            print(f"| {name} (`{key}`) | {webimage_best:.2f} | {label} | {milliseconds:.2f} | {webimage_best / milliseconds:.2f} |")


if __name__ == "__main__":
    main()
