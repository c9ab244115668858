/* A storage table written in plain C (c_storage.c): POSIX files through xsession_storage.h. */
#ifndef XS_TESTS_C_STORAGE_H
#define XS_TESTS_C_STORAGE_H

#include "xsession_storage.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct c_storage_counts {
  unsigned long calls; /* storage functions called (atomically counted) */
  int released;        /* times release() ran: 1 once the engine is done with the table */
} c_storage_counts;

/* Fills *table with the C storage; its user pointer is `counts`, which must outlive the stores. */
void c_storage_fill(xs_storage *table, c_storage_counts *counts);

#ifdef __cplusplus
}
#endif

#endif
