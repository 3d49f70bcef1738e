/*
** arena.c — the bump allocator of arena.h.
*/
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks grow to this size; larger requests get a block of their own. */
#define ARENA_BLOCK_SIZE ((size_t)64 * 1024)
#define ARENA_ALIGN ((size_t)16)   /* enough for long double and any pointer */

struct ArenaBlock {
  ArenaBlock *next;     /* older block */
  size_t size;          /* usable bytes in data */
  _Alignas(16) unsigned char data[];
};

void arena_init(Arena *arena) {
  arena->head = NULL;
  arena->used = 0;
  arena->total = 0;
}

void arena_free(Arena *arena) {
  ArenaBlock *block = arena->head;
  while (block) {
    ArenaBlock *older = block->next;
    free(block);
    block = older;
  }
  arena_init(arena);
}

static ArenaBlock *new_block(size_t size) {
  ArenaBlock *block = malloc(sizeof(ArenaBlock) + size);
  if (!block) {
    fputs("pamc: out of memory\n", stderr);
    abort();
  }
  block->size = size;
  block->next = NULL;
  return block;
}

void *arena_alloc(Arena *arena, size_t size) {
  size_t rounded = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
  if (rounded == 0) rounded = ARENA_ALIGN;
  if (!arena->head || arena->used + rounded > arena->head->size) {
    size_t block_size = rounded > ARENA_BLOCK_SIZE ? rounded : ARENA_BLOCK_SIZE;
    ArenaBlock *block = new_block(block_size);
    if (arena->head && rounded > ARENA_BLOCK_SIZE) {
      /* keep filling the current block: put the big one behind it */
      block->next = arena->head->next;
      arena->head->next = block;
      memset(block->data, 0, rounded);
      arena->total += rounded;
      return block->data;
    }
    block->next = arena->head;
    arena->head = block;
    arena->used = 0;
  }
  void *memory = arena->head->data + arena->used;
  arena->used += rounded;
  arena->total += rounded;
  memset(memory, 0, rounded);
  return memory;
}

char *arena_strndup(Arena *arena, const char *text, size_t length) {
  char *copy = arena_alloc(arena, length + 1);
  memcpy(copy, text, length);
  copy[length] = '\0';
  return copy;
}

char *arena_strdup(Arena *arena, const char *text) {
  return arena_strndup(arena, text, strlen(text));
}

void *arena_memdup(Arena *arena, const void *data, size_t size) {
  void *copy = arena_alloc(arena, size);
  if (size) memcpy(copy, data, size);
  return copy;
}
