#!/usr/bin/env bash
# twice.sh CMD [ARG...]: run CMD, and once more if it fails; exits with the second attempt's status.
#
# Why: a download cut short fails an install (pip neither retries nor resumes a wheel whose hash does not match),
# and a fresh clone's first `make serve` or `make test` should not stop on it. A script, not a shell function
# defined in the Makefile, so that make echoes the command it runs and not the function's text.
"$@" && exit 0
echo "$1 failed (above): trying once more, a download may have been cut short" >&2
exec "$@"
