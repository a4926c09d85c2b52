"""The generator: a game folder in, printable files out, in the order a build walks its stages.

data/ reads the folder's files into validated values; look/ turns them into one scene per face (in mm);
sheets/ lays scenes on paper and draws them as PDF or SVG; exports/ writes faces for other uses. On top:
build.py runs the stages for one game, cli.py is the `starpnp` command, watch.py rebuilds on a save,
customise.py and scaffold/ start a game of one's own, ondemand.py builds for the companion's /print.
A stage imports only the stages before it (tests/generator/test_imports.py).
"""
