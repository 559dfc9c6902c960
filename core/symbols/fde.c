/*
 * Function bounds of stripped code: the FDEs of .eh_frame (and of
 * .debug_frame when there is no .eh_frame), which survive strip. An FDE
 * covers [initial_location, initial_location + address_range): one
 * function as the compiler emitted it, what `readelf --debug-dump=frames`
 * prints as pc=START..END. (A CFI row, which libdw's dwarf_cfi_addrframe
 * gives, is only the part of a function with one CFA rule: an epilogue is
 * a row of its own.)
 *
 * libdw's dwarf_next_cfi() frames the entries; the FDE's two addresses are
 * encoded as its CIE's augmentation says ('R'), decoded here.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "symbols/symbols-int.h"

struct cie_enc {
	Dwarf_Off off;
	uint8_t enc;		/* DW_EH_PE_* of FDE addresses */
};

static uint64_t
get(const uint8_t *p, size_t n, bool swap)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)	/* little-endian unless swap (big-endian file) */
		v |= (uint64_t)p[swap ? n - 1 - i : i] << (8 * i);
	return v;
}

static bool
leb128(const uint8_t **p, const uint8_t *end, bool sign, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		if (*p >= end || shift >= 64)
			return false;
		b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	*out = v;
	return true;
}

/*
 * A DW_EH_PE_* encoded value at *p (whose address is at); *p advances.
 * rel: apply the application part (pcrel) or not (address_range).
 */
static bool
read_encoded(uint8_t enc, const uint8_t **p, const uint8_t *end, uint64_t at,
	     bool is64, bool swap, bool rel, uint64_t *out)
{
	uint64_t v;
	size_t n = 0;
	bool sign = false;

	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
		n = is64 ? 8 : 4;
		break;
	case DW_EH_PE_uleb128:
		if (!leb128(p, end, false, &v))
			return false;
		break;
	case DW_EH_PE_sleb128:
		if (!leb128(p, end, true, &v))
			return false;
		break;
	case DW_EH_PE_udata2: n = 2; break;
	case DW_EH_PE_udata4: n = 4; break;
	case DW_EH_PE_udata8: n = 8; break;
	case DW_EH_PE_sdata2: n = 2; sign = true; break;
	case DW_EH_PE_sdata4: n = 4; sign = true; break;
	case DW_EH_PE_sdata8: n = 8; sign = true; break;
	default:
		return false;
	}
	if (n) {
		if ((size_t)(end - *p) < n)
			return false;
		v = get(*p, n, swap);
		if (sign && n < 8 && (v >> (8 * n - 1)) & 1)
			v |= ~(uint64_t)0 << (8 * n);
		*p += n;
	}
	if (rel && (enc & 0x70) == DW_EH_PE_pcrel)
		v += at;
	else if (rel && (enc & 0x70) != DW_EH_PE_absptr)
		return false;	/* datarel, textrel, funcrel: not in FDEs we read */
	*out = is64 ? v : (uint32_t)v;
	return true;
}

/* The FDE address encoding a CIE's augmentation gives ('R'), else absptr. */
static uint8_t
cie_encoding(const Dwarf_CIE *cie)
{
	const char *a = cie->augmentation;
	const uint8_t *d = cie->augmentation_data;
	const uint8_t *end = d + cie->augmentation_data_size;

	if (a == NULL || a[0] != 'z' || d == NULL)
		return DW_EH_PE_absptr;
	for (a++; *a && d < end; a++) {
		uint64_t skip;
		switch (*a) {
		case 'R':
			return *d;
		case 'L':
			d++;
			break;
		case 'P': {
			uint8_t enc = *d++;
			if (!read_encoded(enc & 0x7f, &d, end, 0, true, false, false, &skip))
				return DW_EH_PE_absptr;
			break;
		}
		default:	/* 'S', 'B': no data */
			break;
		}
	}
	return DW_EH_PE_absptr;
}

static int
range_cmp(const void *a, const void *b)
{
	const struct bt_fde_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

/* The FDEs of one CFI section (eh: .eh_frame) into out. */
static void
read_section(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, bool eh,
	     struct bt_fde_table *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	BT_VEC(struct cie_enc) cies = { 0 };
	bool is64, swap;
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;
	size_t i;

	if (data == NULL || data->d_buf == NULL || ident == NULL)
		return;
	is64 = ident[EI_CLASS] == ELFCLASS64;
	swap = ident[EI_DATA] == ELFDATA2MSB;
	while (dwarf_next_cfi(ident, data, eh, off, &next, &e) == 0) {
		if (dwarf_cfi_cie_p(&e)) {
			struct cie_enc c = { off, eh ? cie_encoding(&e.cie) : DW_EH_PE_absptr };
			BT_VEC_PUSH(cies, c);
		} else {
			const uint8_t *p = e.fde.start, *end = e.fde.end;
			uint8_t enc = eh ? DW_EH_PE_pcrel | DW_EH_PE_sdata4 : DW_EH_PE_absptr;
			uint64_t start, len;

			for (i = 0; i < cies.n; i++)
				if (cies.v[i].off == e.fde.CIE_pointer) {
					enc = cies.v[i].enc;
					break;
				}
			if (read_encoded(enc, &p, end, sh->sh_addr +
			    (uint64_t)(p - (const uint8_t *)data->d_buf), is64, swap, true,
			    &start) &&
			    read_encoded(enc & 0x0f, &p, end, 0, is64, swap, false, &len) &&
			    len > 0) {
				struct bt_fde_range r = { start, start + len };
				BT_VEC_PUSH(*out, r);
			}
		}
		if (next <= off)
			break;
		off = next;
	}
	BT_VEC_FREE(cies);
}

void
bt_fde_table_build(struct bt_fde_table *t, Elf *elf)
{
	static const char *const names[] = { ".eh_frame", ".debug_frame" };
	size_t shstrndx, k;

	if (elf == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	for (k = 0; k < 2 && t->n == 0; k++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			const char *n;
			if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
				continue;
			n = elf_strptr(elf, shstrndx, sh.sh_name);
			if (n != NULL && strcmp(n, names[k]) == 0)
				read_section(elf, scn, &sh, k == 0, t);
		}
	}
	bt_qsort(t->v, t->n, sizeof(*t->v), range_cmp);
}

const struct bt_fde_range *
bt_fde_table_find(const struct bt_fde_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n, k;

	while (lo < hi) {	/* the first FDE starting after addr */
		size_t mid = (lo + hi) / 2;
		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the closest start at or before addr that covers it (FDEs rarely nest) */
	for (k = lo; k > 0 && k + 8 > lo; k--)
		if (addr < t->v[k - 1].end)
			return &t->v[k - 1];
	return NULL;
}
