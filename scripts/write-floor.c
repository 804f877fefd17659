// The disk's floor for durable bulk writes, to compare with `shelf generate`: creates N files
// of SIZE bytes in DIR the way a batch commit does (a temporary name, write, rename) with one
// syncfs every BATCH files, and prints the wall time.
//
//     cc -O2 -o /tmp/write-floor scripts/write-floor.c
//     /tmp/write-floor /tmp/floor-dir 100000 500 300    # then: rm -rf /tmp/floor-dir
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <sys/stat.h>
int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: write-floor DIR COUNT BATCH SIZE (SIZE at most 4096)\n"); return 2; }
    const char *dir = argv[1]; int n = atoi(argv[2]); int batch = atoi(argv[3]); int size = atoi(argv[4]);
    if (n < 1 || batch < 1 || size < 0 || size > 4096) { fprintf(stderr, "write-floor: COUNT and BATCH must be positive, SIZE 0 to 4096\n"); return 2; }
    char buf[4096]; memset(buf, 'x', sizeof buf);
    mkdir(dir, 0755);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd < 0) { perror(dir); return 1; }
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    char tmp[64], name[64];
    for (int i = 0; i < n; i++) {
        snprintf(tmp, sizeof tmp, ".tmp-%d", i); snprintf(name, sizeof name, "b%07d.json", i);
        int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || write(fd, buf, size) != size) { perror(tmp); return 1; }
        close(fd);
        renameat(dfd, tmp, dfd, name);
        if ((i + 1) % batch == 0) syncfs(dfd);
    }
    syncfs(dfd);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%d files of %d bytes, syncfs every %d: %.2f s\n", n, size, batch, (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
    return 0;
}
