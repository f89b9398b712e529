/* What satdomino's C extensions share: reading an array('i') / array('q') argument without
   copying it, and a monotonic clock for time limits. Include after <Python.h>. */
#ifndef SATDOMINO_CBUFFERS_H
#define SATDOMINO_CBUFFERS_H

#include <time.h>

static inline double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* kind 'i': C ints; 'q': 64-bit ints ('l' where a long has 64 bits) */
static inline int get_buffer(PyObject *obj, Py_buffer *view, int writable, char kind,
                      const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS |
                                          (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '@' || *f == '=')
        f++;
    int ok = kind == 'i' ? (*f == 'i' && view->itemsize == sizeof(int))
                         : ((*f == 'q' || *f == 'l') && view->itemsize == 8);
    if (!ok || f[1] != '\0') {
        PyErr_Format(PyExc_TypeError, "%s: expected an array('%c')", name, kind);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* get_buffer for n arguments (kinds[k] each; the last one writable when last_writable);
   the number read: n, or fewer after an error (those read stay held: release_buffers) */
static inline int get_buffers(PyObject *const *objs, Py_buffer *const *views, int n,
                              const char *kinds, int last_writable, const char *const *names)
{
    int got = 0;
    while (got < n && get_buffer(objs[got], views[got], last_writable && got == n - 1,
                                 kinds[got], names[got]) == 0)
        got++;
    return got;
}

static inline void release_buffers(Py_buffer *const *views, int got)
{
    for (int k = 0; k < got; k++)
        PyBuffer_Release(views[k]);
}

#endif
