/* SIGTERM that reaches a solver holding the main thread: satdomino's ``process._sigterm``.

Python runs a signal's handler between bytecodes, so a SIGTERM that comes while a python-sat
solver searches in the main thread (holding the GIL, in C) waits until the search ends: minutes.
python-sat sets a handler of its own for SIGINT while it searches in the main thread. ``bridge()``
puts a C handler in front of Python's SIGTERM handler: while such a handler is in place (SIGINT's
is no longer the one found at the bridge) it writes the CLI's line and ends the process with
``_exit`` (143), which is safe in a signal handler; otherwise it passes the signal on to Python's.
Jumping out of the solver instead (python-sat's way with Ctrl-C) can leave malloc's lock held
or its heap half-changed: under load 2 of 36 such stops hung or aborted.

bridge() -> None   (again: nothing more; Python's ``signal.signal(SIGTERM, ...)`` removes it)
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <signal.h>
#include <string.h>
#include <unistd.h>

static struct sigaction python_term; /* Python's SIGTERM handler, called on */
static struct sigaction python_int;  /* SIGINT's handler when bridged: Python's own */

static void on_term(int sig)
{
    static const char said[] = "satdomino: terminated\n";
    struct sigaction now;
    if (sigaction(SIGINT, NULL, &now) == 0 && now.sa_handler != python_int.sa_handler &&
        now.sa_handler != SIG_IGN && now.sa_handler != SIG_DFL) {
        ssize_t ignored = write(2, said, sizeof said - 1);
        (void)ignored;
        _exit(128 + SIGTERM);
    }
    if (python_term.sa_handler != SIG_DFL && python_term.sa_handler != SIG_IGN &&
        python_term.sa_handler != NULL)
        python_term.sa_handler(sig);
}

static PyObject *bridge(PyObject *self, PyObject *args)
{
    struct sigaction ours, current;
    if (sigaction(SIGTERM, NULL, &current) != 0)
        return PyErr_SetFromErrno(PyExc_OSError);
    if (current.sa_handler == on_term)
        Py_RETURN_NONE;
    if (sigaction(SIGINT, NULL, &python_int) != 0)
        return PyErr_SetFromErrno(PyExc_OSError);
    python_term = current;
    memset(&ours, 0, sizeof ours);
    ours.sa_handler = on_term;
    sigemptyset(&ours.sa_mask);
    ours.sa_flags = SA_ONSTACK;
    if (sigaction(SIGTERM, &ours, NULL) != 0)
        return PyErr_SetFromErrno(PyExc_OSError);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bridge", bridge, METH_NOARGS, "SIGTERM also ends a python-sat search; see the source."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_sigterm",
                                    "SIGTERM into a python-sat search (see _sigterm.c)", -1,
                                    methods};

PyMODINIT_FUNC PyInit__sigterm(void) { return PyModule_Create(&module); }
