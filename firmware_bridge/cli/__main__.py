"""`python -m firmware_bridge.cli ...`: the `arbiter` command without its installed script."""

import sys

from firmware_bridge.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
