"""Settings package: ``base`` holds everything shared; ``dev``, ``test`` and
``production`` only change what differs between those places."""
