#!/usr/bin/env python3
"""Writes the 1920x1080 test picture of docs/performance.md ("Crash isolation") as a binary
PPM on standard output: sine gradients plus uniform noise of +-12 per channel (seed 7).
Turn it into the benchmark's JPEG with: cjpeg -quality 85 photo.ppm > photo-1920x1080.jpg"""
import math
import random
import sys

WIDTH, HEIGHT = 1920, 1080


def clamp(value):
    return max(0, min(255, value))


def main():
    random.seed(7)
    pixels = bytearray()
    for y in range(HEIGHT):
        for x in range(WIDTH):
            red = int(127 + 100 * math.sin(x / 97.0) * math.cos(y / 53.0)) + random.randint(-12, 12)
            green = int(127 + 90 * math.sin((x + y) / 71.0)) + random.randint(-12, 12)
            blue = int(127 + 80 * math.cos(x / 31.0 + y / 47.0)) + random.randint(-12, 12)
            pixels += bytes((clamp(red), clamp(green), clamp(blue)))
    sys.stdout.buffer.write(b"P6\n%d %d\n255\n" % (WIDTH, HEIGHT) + pixels)


if __name__ == "__main__":
    main()
