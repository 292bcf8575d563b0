"""The command line: the only package that imports click or rich or touches the screen."""
