#include "CDependencyInjectionShims.h"

#if defined(__APPLE__)
#include <pthread.h>
int c_di_is_main_thread(void) { return pthread_main_np() != 0; }
#elif defined(__linux__) || defined(__ANDROID__)
#define _GNU_SOURCE
#include <unistd.h>
#include <sys/syscall.h>
// On Linux the main thread's kernel thread id equals the process id.
int c_di_is_main_thread(void) { return (pid_t)syscall(SYS_gettid) == getpid(); }
#elif defined(_WIN32)
int c_di_is_main_thread(void) { return 0; }
#else
#include <pthread.h>
int c_di_is_main_thread(void) { return 0; }
#endif
