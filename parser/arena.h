/*
** arena.h — bump allocation for one compilation: everything a run of pamc builds (tokens'
** strings, AST, symbol tables) is released at once by arena_free.
*/
#ifndef PAMC_ARENA_H
#define PAMC_ARENA_H

#include <stddef.h>

typedef struct ArenaBlock ArenaBlock;

typedef struct Arena {
  ArenaBlock *head;     /* newest block; older blocks chained behind it */
  size_t used;          /* bytes used in head */
  size_t total;         /* bytes handed out over the arena's life (for statistics) */
} Arena;

void arena_init(Arena *arena);
void arena_free(Arena *arena);
/* Zeroed, aligned for any object; aborts on out-of-memory (nothing sensible to return to). */
void *arena_alloc(Arena *arena, size_t size);
char *arena_strdup(Arena *arena, const char *text);
char *arena_strndup(Arena *arena, const char *text, size_t length);
/* Copies count elements of size bytes into the arena (for finishing growable vectors). */
void *arena_memdup(Arena *arena, const void *data, size_t size);

#endif
