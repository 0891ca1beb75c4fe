"""One subpackage per game; importing this package registers every game with ``load_game``."""

from . import cross_endodoi  # noqa: F401
from . import sinoda  # noqa: F401
