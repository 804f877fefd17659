/* Whether a collection snapshot file could beat reading one file a document (issue 23): the
 * floor of each way on this disk, with no parsing, as a C program does it.
 *
 *   cc -O2 -pthread -o /tmp/snapshot-floor scripts/snapshot-floor.c
 *   /tmp/snapshot-floor FOLDER [THREADS] [RUNS]
 *
 * For the .json files of FOLDER, split among THREADS (default 2) threads, the median of RUNS
 * (default 5) warm runs of:
 *   files      openat, fstat, read, close of every file (what reading the folder costs now)
 *   validate   fstatat of every file: what a snapshot file must still do to know that no
 *              file changed since it was written (each file's stamp against the one it holds)
 *   snapshot   one read of a file holding every document (written once beforehand into
 *              FOLDER/../snapshot-floor.tmp, removed at the end)
 * A snapshot file's floor is validate + snapshot; the parse of the JSON is the same either way.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char **names;
static size_t count;
static int folder;
static int threads = 2;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

struct part { size_t from, to; int mode; size_t bytes; };

static void *work(void *argument) {
    struct part *part = argument;
    char buffer[65536];
    for (size_t i = part->from; i < part->to; i++) {
        struct stat st;
        if (part->mode == 1) {
            if (fstatat(folder, names[i], &st, AT_SYMLINK_NOFOLLOW) != 0) perror(names[i]);
            continue;
        }
        int fd = openat(folder, names[i], O_RDONLY | O_CLOEXEC);
        if (fd < 0) { perror(names[i]); continue; }
        fstat(fd, &st);
        ssize_t got;
        while ((got = read(fd, buffer, sizeof buffer)) > 0) part->bytes += (size_t)got;
        close(fd);
    }
    return NULL;
}

/* Seconds for one pass of `mode` (0 files, 1 validate) over every name. */
static double pass(int mode, size_t *bytes) {
    pthread_t ids[64];
    struct part parts[64];
    double start = now();
    for (int t = 0; t < threads; t++) {
        parts[t] = (struct part){count * t / threads, count * (t + 1) / threads, mode, 0};
        pthread_create(&ids[t], NULL, work, &parts[t]);
    }
    *bytes = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        *bytes += parts[t].bytes;
    }
    return now() - start;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int n) {
    qsort(values, n, sizeof *values, compare);
    return values[n / 2];
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FOLDER [THREADS] [RUNS]\n", argv[0]);
        return 2;
    }
    if (argc > 2) threads = atoi(argv[2]);
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    if (threads < 1 || threads > 64 || runs < 1) {
        fprintf(stderr, "THREADS is 1 to 64, RUNS at least 1\n");
        return 2;
    }
    folder = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) { perror(argv[1]); return 1; }
    DIR *dir = fdopendir(dup(folder));
    size_t capacity = 1024;
    names = malloc(capacity * sizeof *names);
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        size_t length = strlen(entry->d_name);
        if (entry->d_name[0] == '.' || length < 6 || strcmp(entry->d_name + length - 5, ".json") != 0) continue;
        if (count == capacity) names = realloc(names, (capacity *= 2) * sizeof *names);
        names[count++] = strdup(entry->d_name);
    }
    closedir(dir);

    /* The snapshot: every document's bytes in one file beside the folder. */
    char snapshotPath[4096];
    snprintf(snapshotPath, sizeof snapshotPath, "%s/../snapshot-floor.tmp", argv[1]);
    int out = open(snapshotPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) { perror(snapshotPath); return 1; }
    char buffer[65536];
    for (size_t i = 0; i < count; i++) {
        int fd = openat(folder, names[i], O_RDONLY | O_CLOEXEC);
        ssize_t got;
        while (fd >= 0 && (got = read(fd, buffer, sizeof buffer)) > 0) {
            if (write(out, buffer, (size_t)got) != got) { perror(snapshotPath); return 1; }
        }
        if (fd >= 0) close(fd);
    }
    close(out);

    double files[runs], validate[runs], snapshot[runs];
    size_t bytes = 0, ignored;
    for (int run = 0; run < runs; run++) {
        files[run] = pass(0, &bytes);
        validate[run] = pass(1, &ignored);
        double start = now();
        int fd = open(snapshotPath, O_RDONLY | O_CLOEXEC);
        char *all = malloc(bytes + 1);
        size_t got = 0;
        ssize_t n;
        while ((n = read(fd, all + got, bytes + 1 - got)) > 0) got += (size_t)n;
        close(fd);
        free(all);
        snapshot[run] = now() - start;
    }
    unlink(snapshotPath);
    double f = median(files, runs), v = median(validate, runs), s = median(snapshot, runs);
    printf("%zu files, %zu bytes, %d thread(s), medians of %d warm runs\n", count, bytes, threads, runs);
    printf("files     (openat, fstat, read, close each): %8.1f ms\n", f * 1000);
    printf("validate  (fstatat each):                    %8.1f ms\n", v * 1000);
    printf("snapshot  (one read of every document):      %8.1f ms\n", s * 1000);
    printf("a snapshot file's floor (validate + read): %.1f ms = %.2f of the files'\n", (v + s) * 1000, (v + s) / f);
    return 0;
}
