#ifndef C_DEPENDENCY_INJECTION_SHIMS_H
#define C_DEPENDENCY_INJECTION_SHIMS_H

/// Returns 1 when the calling thread is the process's main thread (the one the main actor runs on).
int c_di_is_main_thread(void);

#endif
