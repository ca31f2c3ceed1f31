"""A policy whose behaviour a test sets at run time (not a test module)."""

POLICY = None


def policy(request):
    return POLICY(request)
