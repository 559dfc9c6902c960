/* What the files of core/lint share. */
#ifndef BENCHTUI_LINT_INT_H
#define BENCHTUI_LINT_INT_H

struct bt_session;

/* Add a finding (lint.c): check name, function index or -1, share, message. */
void bt_lint_add(struct bt_session *s, const char *check, long func,
		 double percent, const char *message);
/* The JIT checks (lint-jit.c, DESIGN.md §8). */
void bt_lint_jit(struct bt_session *s);
/* Is function fi JIT code, or code in anonymous memory? (no ELF advice for it) */
bool bt_lint_is_jit(struct bt_session *s, size_t fi);

#endif
