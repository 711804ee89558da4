#!/usr/bin/env python3
"""Writes the APNG fixtures of the PNG coder's animation tests with Pillow (pip install
pillow; needed only to regenerate), and the composited RGBA frames Pillow reads back from
them, which the tests compare with.

- anim.apng: 12 x 10, 3 frames (the default image is frame 0), loop count 2, durations
  40 / 100 / 250 ms, disposal none / background / previous, blend source / over / over,
  translucent pixels; Pillow stores later frames as sub-rectangles at an offset.
- hidden-default.apng: the default image is not part of the animation (2 animation frames).
Run from this folder: python3 make-fixtures.py
"""
from PIL import Image, ImageSequence


def frame(colour, box=None, alpha=255, size=(12, 10)):
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    left, top, right, bottom = box or (0, 0) + size
    for y in range(top, bottom):
        for x in range(left, right):
            image.putpixel((x, y), colour + (alpha,))
    return image


frames = [
    frame((200, 30, 30)),
    frame((30, 200, 30), box=(2, 3, 8, 7), alpha=128),
    frame((30, 30, 200), box=(6, 1, 11, 9)),
]
frames[0].save(
    "anim.apng", format="PNG", save_all=True, append_images=frames[1:], duration=[40, 100, 250], loop=2,
    disposal=[0, 1, 2], blend=[0, 1, 1])
default = frame((255, 255, 255))
default.save(
    "hidden-default.apng", format="PNG", save_all=True, append_images=[default, frames[0], frames[2]],
    default_image=True, duration=[10, 60, 70], loop=0)

for name in ("anim", "hidden-default"):
    with Image.open(f"{name}.apng") as image:
        raw = b"".join(f.convert("RGBA").tobytes() for f in ImageSequence.Iterator(image))
        print(name, image.n_frames, image.info.get("loop"), [f.info.get("duration") for f in ImageSequence.Iterator(image)])
    with open(f"{name}.coalesced.rgba", "wb") as out:
        out.write(raw)
