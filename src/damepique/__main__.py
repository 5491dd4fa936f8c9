import sys

from damepique.cli import main

sys.exit(main())
