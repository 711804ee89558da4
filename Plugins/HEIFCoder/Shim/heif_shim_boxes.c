/*
 * Checks on the raw box layout that libheif 1.15 does not make before allocating: a top-level
 * box or an item's data ('iloc' extent) that claims bytes past the end of an in-memory file.
 * libheif allocates an item's whole extent length before it copies, so an 'iloc' length of
 * hundreds of megabytes in a 1 KB file would otherwise cost that much memory.
 */
#include "heif_shim_internal.h"

#include <string.h>

static uint64_t read_be(const uint8_t *bytes, int count) {
    uint64_t value = 0;
    for (int i = 0; i < count; i++) value = value << 8 | bytes[i];
    return value;
}

/** A box's type, header size and total size at `position`; 0 when it cannot be read. */
static int read_box(const uint8_t *bytes, size_t size, size_t position, char type[4], size_t *header,
                    uint64_t *box_size) {
    if (size - position < 8) return 0;
    *box_size = read_be(bytes + position, 4);
    memcpy(type, bytes + position + 4, 4);
    *header = 8;
    if (*box_size == 1) {
        if (size - position < 16) return 0;
        *box_size = read_be(bytes + position + 8, 8);
        *header = 16;
    } else if (*box_size == 0) {
        *box_size = size - position;
    }
    return *box_size >= *header;
}

int heif_shim_boxes_are_cut(const uint8_t *bytes, size_t size) {
    size_t position = 0;
    while (position < size) {
        char type[4];
        size_t header = 0;
        uint64_t box_size = 0;
        if (!read_box(bytes, size, position, type, &header, &box_size)) return size - position < 16;
        if (box_size > size - position) return 1;
        position += (size_t)box_size;
    }
    return 0;
}

/** Where the children of the top-level 'meta' box that matter here are (0 = absent). */
typedef struct meta_boxes {
    const uint8_t *iloc;
    size_t iloc_size;
    const uint8_t *iinf;
    size_t iinf_size;
    const uint8_t *idat;
    size_t idat_size;
} meta_boxes;

static void find_meta_boxes(const uint8_t *bytes, size_t size, meta_boxes *found) {
    memset(found, 0, sizeof *found);
    size_t position = 0;
    while (position < size) {
        char type[4];
        size_t header = 0;
        uint64_t box_size = 0;
        if (!read_box(bytes, size, position, type, &header, &box_size) || box_size > size - position) return;
        if (memcmp(type, "meta", 4) == 0 && box_size >= header + 4) {
            size_t child = position + header + 4; /* FullBox: version and flags */
            size_t end = position + (size_t)box_size;
            while (child < end) {
                char child_type[4];
                size_t child_header = 0;
                uint64_t child_size = 0;
                if (!read_box(bytes, end, child, child_type, &child_header, &child_size) || child_size > end - child) {
                    return;
                }
                const uint8_t *body = bytes + child + child_header;
                size_t body_size = (size_t)child_size - child_header;
                if (memcmp(child_type, "iloc", 4) == 0) found->iloc = body, found->iloc_size = body_size;
                if (memcmp(child_type, "iinf", 4) == 0) found->iinf = body, found->iinf_size = body_size;
                if (memcmp(child_type, "idat", 4) == 0) found->idat = body, found->idat_size = body_size;
                child += (size_t)child_size;
            }
            return;
        }
        position += (size_t)box_size;
    }
}

/** One extent of an item, as 'iloc' lists it. */
typedef struct item_extent {
    uint32_t item;
    int method;
    uint64_t offset; /* base_offset + extent_offset */
    uint64_t length;
} item_extent;

/**
 * Calls `visit` for each extent in an 'iloc' body until it returns non-zero; returns that
 * value, or 0 (also for a body cut short, which libheif reports itself).
 */
static int walk_iloc(const uint8_t *body, size_t length, int (*visit)(const item_extent *, void *), void *context) {
    if (!body || length < 6) return 0;
    int version = body[0];
    if (version > 2) return 0;
    int offset_size = body[4] >> 4, length_size = body[4] & 15, base_size = body[5] >> 4;
    int index_size = version >= 1 ? body[5] & 15 : 0;
    size_t position = 6;
    int id_size = version == 2 ? 4 : 2;
    if (length - position < (size_t)id_size) return 0;
    uint64_t items = read_be(body + position, id_size);
    position += (size_t)id_size;
    for (uint64_t item = 0; item < items; item++) {
        size_t fixed = (size_t)id_size + (version >= 1 ? 2 : 0) + 2 + (size_t)base_size + 2;
        if (length - position < fixed) return 0;
        item_extent extent = {(uint32_t)read_be(body + position, id_size), 0, 0, 0};
        extent.method = version >= 1 ? (int)(read_be(body + position + id_size, 2) & 15) : 0;
        size_t at = position + (size_t)id_size + (version >= 1 ? 2 : 0) + 2;
        uint64_t base = read_be(body + at, base_size);
        uint64_t extents = read_be(body + at + base_size, 2);
        position += fixed;
        size_t extent_size = (size_t)index_size + (size_t)offset_size + (size_t)length_size;
        for (uint64_t index = 0; index < extents; index++) {
            if (length - position < extent_size) return 0;
            uint64_t offset = read_be(body + position + index_size, offset_size);
            extent.length = read_be(body + position + index_size + offset_size, length_size);
            extent.offset = base + offset < base ? UINT64_MAX : base + offset;
            position += extent_size;
            int result = visit(&extent, context);
            if (result) return result;
        }
    }
    return 0;
}

static int extent_past_end(const item_extent *extent, void *context) {
    uint64_t file_size = *(const uint64_t *)context;
    return extent->method == 0 && (extent->offset > file_size || extent->length > file_size - extent->offset);
}

int heif_shim_item_data_is_cut(const uint8_t *bytes, size_t size) {
    meta_boxes meta;
    find_meta_boxes(bytes, size, &meta);
    uint64_t file_size = size;
    return walk_iloc(meta.iloc, meta.iloc_size, extent_past_end, &file_size);
}

/** What derived_canvas looks for and finds. */
typedef struct canvas_search {
    uint32_t item;
    int overlay;
    const uint8_t *bytes;
    size_t size;
    const meta_boxes *meta;
    uint64_t width;
    uint64_t height;
} canvas_search;

/** Reads the output size from the first extent of a 'grid' or 'iovl' item's data. */
static int read_canvas(const item_extent *extent, void *context) {
    canvas_search *search = context;
    if (extent->item != search->item) return 0;
    const uint8_t *data = NULL;
    uint64_t available = 0;
    if (extent->method == 0 && extent->offset < search->size) {
        data = search->bytes + extent->offset;
        available = search->size - extent->offset;
    } else if (extent->method == 1 && search->meta->idat && extent->offset < search->meta->idat_size) {
        data = search->meta->idat + extent->offset;
        available = search->meta->idat_size - extent->offset;
    }
    if (!data) return 1;
    if (extent->length > 0 && extent->length < available) available = extent->length;
    /* grid: version, flags, rows-1, columns-1; iovl: version, flags, four 16-bit fill values. */
    size_t skip = search->overlay ? 10 : 4;
    int wide = available >= 2 && (data[1] & 1);
    size_t field = wide ? 4 : 2;
    if (available < skip + 2 * field) return 1;
    search->width = read_be(data + skip, (int)field);
    search->height = read_be(data + skip + field, (int)field);
    return 1;
}

int heif_shim_derived_canvas_too_large(const uint8_t *bytes, size_t size, uint64_t max_pixel_count, uint64_t *width,
                                       uint64_t *height) {
    if (max_pixel_count == 0) return 0;
    meta_boxes meta;
    find_meta_boxes(bytes, size, &meta);
    if (!meta.iinf || meta.iinf_size < 6) return 0;
    int version = meta.iinf[0];
    size_t position = 4 + (version == 0 ? 2 : 4);
    while (position < meta.iinf_size) {
        char type[4];
        size_t header = 0;
        uint64_t box_size = 0;
        if (!read_box(meta.iinf, meta.iinf_size, position, type, &header, &box_size) ||
            box_size > meta.iinf_size - position) {
            return 0;
        }
        const uint8_t *infe = meta.iinf + position + header;
        size_t infe_size = (size_t)box_size - header;
        position += (size_t)box_size;
        if (memcmp(type, "infe", 4) != 0 || infe_size < 4 || infe[0] < 2) continue;
        size_t id_size = infe[0] == 2 ? 2 : 4;
        if (infe_size < 4 + id_size + 2 + 4) continue;
        const uint8_t *item_type = infe + 4 + id_size + 2;
        int overlay = memcmp(item_type, "iovl", 4) == 0;
        if (!overlay && memcmp(item_type, "grid", 4) != 0) continue;
        canvas_search search = {(uint32_t)read_be(infe + 4, (int)id_size), overlay, bytes, size, &meta, 0, 0};
        walk_iloc(meta.iloc, meta.iloc_size, read_canvas, &search);
        if (search.width * search.height > max_pixel_count || search.width > UINT32_MAX || search.height > UINT32_MAX) {
            *width = search.width;
            *height = search.height;
            return 1;
        }
    }
    return 0;
}
