"""The game core's own tests: pure Python, no Django; they run where the package is installed
(`python -m pytest --pyargs gamecore.tests`) as well as in the site's suite."""
