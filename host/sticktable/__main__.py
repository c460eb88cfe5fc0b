import sys

from sticktable.cli import main

sys.exit(main())
