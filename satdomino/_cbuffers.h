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

#endif
