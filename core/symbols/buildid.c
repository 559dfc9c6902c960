/*
 * Build-ids from ELF notes, and the vDSO image: this process's, or the one
 * a recording needs (from the recording, this kernel or perf's cache).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "base.h"
#include "symbols/symbols.h"

static size_t
elf_build_id(Elf *elf, uint8_t id[20])
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data == NULL)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)data->d_buf + noff, "GNU", 4) == 0 &&
			    nh.n_descsz > 0) {
				size_t n = BT_MIN(nh.n_descsz, 20);
				memcpy(id, (char *)data->d_buf + doff, n);
				return n;
			}
		}
	}
	return 0;
}

size_t
bt_elf_build_id(const char *path, uint8_t id[20])
{
	size_t n = 0;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = bt_open_regular(path);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf != NULL && elf_kind(elf) == ELF_K_ELF)
		n = elf_build_id(elf, id);
	elf_end(elf);
	close(fd);
	return n;
}

size_t
bt_elf_build_id_mem(const void *image, size_t len, uint8_t id[20])
{
	size_t n = 0;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)image, len);
	if (elf != NULL && elf_kind(elf) == ELF_K_ELF)
		n = elf_build_id(elf, id);
	elf_end(elf);
	return n;
}

const void *
bt_own_vdso(size_t *len)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	char line[512];
	FILE *f;

	*len = 0;
	if (base == 0)
		return NULL;
	f = fopen("/proc/self/maps", "re");
	if (f == NULL)
		return NULL;
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == base &&
		    strstr(line, "[vdso]") != NULL) {
			*len = hi - lo;
			break;
		}
	}
	fclose(f);
	return *len ? (const void *)base : NULL;
}

void
bt_build_id_hex(const uint8_t *id, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = '\0';
}

void *
bt_vdso_find(const void *recorded, size_t recorded_len, const uint8_t *bid,
	     size_t bid_size, size_t *len)
{
	uint8_t id[20];
	char hex[41];
	const void *own;
	size_t n;
	void *image;

	*len = 0;
	if (recorded != NULL) {
		image = bt_xmalloc(recorded_len);
		memcpy(image, recorded, recorded_len);
		*len = recorded_len;
		return image;
	}
	own = bt_own_vdso(&n);
	if (own != NULL && (bid_size == 0 ||
	    (bt_elf_build_id_mem(own, n, id) == bid_size &&
	     memcmp(id, bid, bid_size) == 0))) {
		image = bt_xmalloc(n);
		memcpy(image, own, n);
		*len = n;
		return image;
	}
	if (bid_size && getenv("HOME") != NULL) {
		struct bt_strbuf sb = BT_STRBUF_INIT;
		char *path;

		bt_build_id_hex(bid, bid_size, hex);
		path = bt_xasprintf("%s/.debug/[vdso]/%s/vdso", getenv("HOME"), hex);
		if (bt_strbuf_read_file(&sb, path, 1 << 20) == 0 && sb.len > 0) {
			*len = sb.len;
			free(path);
			return bt_strbuf_detach(&sb, NULL);
		}
		bt_strbuf_release(&sb);
		free(path);
	}
	return NULL;
}

char *
bt_buildid_cache_file(const uint8_t *id, size_t n)
{
	const char *dir = getenv("PERF_BUILDID_DIR");
	char hex[2 * 20 + 1];
	char *path;
	int fd;

	if (n == 0 || n > 20)
		return NULL;
	bt_build_id_hex(id, n, hex);
	if (dir != NULL && dir[0])
		path = bt_xasprintf("%s/.build-id/%.2s/%s/elf", dir, hex, hex + 2);
	else if (getenv("HOME") != NULL)
		path = bt_xasprintf("%s/.debug/.build-id/%.2s/%s/elf", getenv("HOME"),
		    hex, hex + 2);
	else
		return NULL;
	fd = bt_open_recorded(path);
	if (fd < 0) {
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}
