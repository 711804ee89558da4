/* Which files the 1/8-scale fast path covers, and the plan it decodes them with. */
#include <string.h>

#include "jpeg_dc_internal.h"

static uint32_t divide_rounding_up(uint32_t value, uint32_t divisor) {
    return (uint32_t)(((uint64_t)value + divisor - 1) / divisor);
}

/** The slot of a column the 2×2 reduced IDCT reads (0, 1, 3, 5, 7), or -1. */
static int8_t column_slot(int column) {
    switch (column) {
    case 0:
        return 0;
    case 1:
        return 1;
    case 3:
        return 2;
    case 5:
        return 3;
    case 7:
        return 4;
    default:
        return -1;
    }
}

/** The odd-part weight of a row in the 2×2 reduced IDCT (libjpeg's constants, scaled by 2^13), 0 if unread. */
static int32_t odd_weight(int row) {
    switch (row) {
    case 1:
        return 29692; /* sqrt(2) * (c1 + c3 + c5 + c7) */
    case 3:
        return -10426; /* sqrt(2) * (-c1 + c3 - c5 - c7) */
    case 5:
        return 6967; /* sqrt(2) * (-c1 + c3 + c5 + c7) */
    case 7:
        return -5906; /* sqrt(2) * (c7 - c5 + c3 - c1) */
    default:
        return 0;
    }
}

/** Fills the terms by zigzag index, walking the anti-diagonals of the 8×8 block. */
static void fill_terms(jpeg_dc_term terms[80]) {
    int zigzag = 0;
    for (int diagonal = 0; diagonal < 15; diagonal++) {
        int first_row = diagonal < 8 ? 0 : diagonal - 7;
        int last_row = diagonal < 8 ? diagonal : 7;
        for (int step = 0; step <= last_row - first_row; step++) {
            int row = diagonal % 2 == 1 ? first_row + step : last_row - step;
            int column = diagonal - row;
            jpeg_dc_term *term = &terms[zigzag++];
            term->natural_index = (uint8_t)(row * 8 + column);
            int32_t weight = odd_weight(row);
            term->is_even = row == 0;
            term->odd_weight = weight;
            term->column_slot = (row == 0 || weight != 0) ? column_slot(column) : -1;
        }
    }
    for (int index = 64; index < 80; index++) terms[index] = terms[63];
}

/** The layout of the components' sampling factors, or -1 when the fast path does not cover it. */
static int choose_layout(j_decompress_ptr info) {
    if (info->num_components == 1 && info->jpeg_color_space == JCS_GRAYSCALE) return JPEG_DC_GRAY;
    if (info->num_components != 3 || info->jpeg_color_space != JCS_YCbCr) return -1;
    const jpeg_component_info *luma = &info->comp_info[0];
    for (int c = 1; c < 3; c++) {
        if (info->comp_info[c].h_samp_factor != 1 || info->comp_info[c].v_samp_factor != 1) return -1;
    }
    if (luma->h_samp_factor == 1 && luma->v_samp_factor == 1) return JPEG_DC_YCC_444;
    if (luma->h_samp_factor == 2 && luma->v_samp_factor == 1) return JPEG_DC_YCC_422;
    if (luma->h_samp_factor == 2 && luma->v_samp_factor == 2) return JPEG_DC_YCC_420;
    return -1;
}

/** Builds (once) the table `slot` of the plan from libjpeg's copy; NULL when libjpeg has none or it is invalid. */
static const jpeg_dc_huffman *use_table(jpeg_dc_plan *plan, const JHUFF_TBL *source, int slot, int is_ac,
                                        uint8_t built[8]) {
    if (source == NULL) return NULL;
    if (!built[slot]) {
        if (!jpeg_dc_build_table(source->bits, source->huffval, is_ac, &plan->tables[slot])) return NULL;
        built[slot] = 1;
    }
    return &plan->tables[slot];
}

/** Adds the blocks of one component to the MCU; 0 when a table is missing. */
static int add_component_blocks(j_decompress_ptr info, jpeg_dc_plan *plan, int component, int block_count,
                                jpeg_dc_block_kind kind, uint8_t built[8]) {
    const jpeg_component_info *info_component = &info->comp_info[component];
    if (info_component->quant_tbl_no < 0 || info_component->quant_tbl_no > 3) return 0;
    const JQUANT_TBL *quantization = info->quant_tbl_ptrs[info_component->quant_tbl_no];
    if (quantization == NULL) return 0;
    /* A progressive file names its tables scan by scan: its decoder takes them from each scan. */
    const jpeg_dc_huffman *dc = NULL, *ac = NULL;
    if (!info->progressive_mode) {
        if (info_component->dc_tbl_no < 0 || info_component->dc_tbl_no > 3 || info_component->ac_tbl_no < 0 ||
            info_component->ac_tbl_no > 3) {
            return 0;
        }
        dc = use_table(plan, info->dc_huff_tbl_ptrs[info_component->dc_tbl_no], info_component->dc_tbl_no, 0, built);
        ac =
            use_table(plan, info->ac_huff_tbl_ptrs[info_component->ac_tbl_no], 4 + info_component->ac_tbl_no, 1, built);
        if (dc == NULL || ac == NULL) return 0;
    }
    plan->dc_quantizer[component] = quantization->quantval[0];
    for (int i = 0; i < block_count; i++) {
        jpeg_dc_block *block = &plan->blocks[plan->block_count++];
        block->kind = kind;
        block->component = (uint8_t)component;
        block->record_offset = (uint8_t)plan->record_size;
        block->dc_table = dc;
        block->ac_table = ac;
        block->quantization = quantization->quantval;
        plan->last_dc_offset[component] = plan->record_size;
        plan->record_size += kind == JPEG_DC_BLOCK_TWO_BY_TWO ? 4 : 1;
    }
    return 1;
}

int jpeg_dc_make_plan(j_decompress_ptr info, jpeg_dc_plan *plan) {
    memset(plan, 0, sizeof *plan);
    if (info->arith_code || info->data_precision != 8 || info->CCIR601_sampling) return 0;
    if (info->out_color_space != JCS_EXT_RGBA || info->quantize_colors || info->scale_num != 1 ||
        info->scale_denom != 8) {
        return 0;
    }
    if (info->progressive_mode) {
        /* Its scans are checked one by one as they are decoded (jpeg_dc_progressive.c). */
    } else if (info->comps_in_scan != info->num_components || info->Ss != 0 || info->Se != 63 || info->Ah != 0 ||
               info->Al != 0) {
        return 0;
    }
    for (int c = 0; c < info->comps_in_scan && !info->progressive_mode; c++) {
        if (info->cur_comp_info[c] != &info->comp_info[c]) return 0;
    }
    int layout = choose_layout(info);
    if (layout < 0 || info->image_width == 0 || info->image_height == 0) return 0;
    plan->layout = (jpeg_dc_layout)layout;
    plan->components = info->num_components;
    plan->width = info->image_width;
    plan->height = info->image_height;
    plan->output_width = divide_rounding_up(plan->width, 8);
    plan->output_height = divide_rounding_up(plan->height, 8);
    if (plan->output_width != info->output_width || plan->output_height != info->output_height) return 0;
    uint32_t luma_h = (uint32_t)info->comp_info[0].h_samp_factor, luma_v = (uint32_t)info->comp_info[0].v_samp_factor;
    uint32_t mcu_width = layout == JPEG_DC_GRAY ? 8 : 8 * luma_h;
    uint32_t mcu_height = layout == JPEG_DC_GRAY ? 8 : 8 * luma_v;
    plan->mcus_per_row = divide_rounding_up(plan->width, mcu_width);
    plan->mcu_rows = divide_rounding_up(plan->height, mcu_height);
    plan->mcu_count = (uint64_t)plan->mcus_per_row * plan->mcu_rows;
    plan->restart_interval = info->restart_interval;
    fill_terms(plan->terms);
    uint8_t built[8] = {0};
    int luma_blocks = layout == JPEG_DC_GRAY ? 1 : (int)(luma_h * luma_v);
    if (!add_component_blocks(info, plan, 0, luma_blocks, JPEG_DC_BLOCK_DC_ONLY, built)) return 0;
    jpeg_dc_block_kind chroma = layout == JPEG_DC_YCC_420 ? JPEG_DC_BLOCK_TWO_BY_TWO : JPEG_DC_BLOCK_DC_ONLY;
    for (int c = 1; c < plan->components; c++) {
        if (!add_component_blocks(info, plan, c, 1, chroma, built)) return 0;
    }
    return 1;
}
