/* The default cost limit, from the cgroup's memory limit or physical memory. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "memory_cache_shim.h"

/** The number in the first line of `path`, or 0 when it is missing, "max" or absurdly large. */
static uint64_t read_limit(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) return 0;
    char line[64] = {0};
    unsigned long long value = 0;
    bool parsed = fgets(line, sizeof(line), file) && sscanf(line, "%llu", &value) == 1;
    fclose(file);
    if (!parsed || value >= (1ull << 60)) return 0;
    return value;
}

uint64_t memory_cache_available_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGESIZE);
    uint64_t physical = pages > 0 && page_size > 0 ? (uint64_t)pages * (uint64_t)page_size : 0;
    uint64_t cgroup = read_limit("/sys/fs/cgroup/memory.max");
    if (cgroup == 0) cgroup = read_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (cgroup > 0 && (physical == 0 || cgroup < physical)) return cgroup;
    return physical;
}

uint64_t memory_cache_default_cost_limit(void) {
    const uint64_t cap = 768ull * 1024 * 1024;
    uint64_t limit = memory_cache_available_memory() / 100 * 15;
    return limit == 0 || limit > cap ? cap : limit;
}
