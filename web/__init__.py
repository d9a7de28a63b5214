"""The tablet display: a Flask application factory served by web.server (gevent)."""
