import sys

from blokus.cli import main

sys.exit(main())
