"""ASGI entry point: HTTP; websockets through Channels, origin and session checked."""

from __future__ import annotations

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "eleora_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from combat.routing import websocket_urlpatterns  # noqa: E402
from combat.sweeps import sweeping  # noqa: E402

# Channels runs all of a process's database work in one thread beside the event loop. Each
# query gives up the GIL and must wait for it back; with the default 5 ms switch interval a
# busy event loop made every query wait up to 5 ms (a connect storm managed ~25 sockets/s).
sys.setswitchinterval(0.0005)
# What is loaded now lives as long as the process: keep it out of the collector's full passes
# (a ~100 ms gen-2 collection every few hundred actions showed in the p99).
gc.freeze()

# The process's table sweeper (combat/sweeps.py: deadlines and by-post reminders of tables
# nobody has open) starts with the first request or socket.
application = sweeping(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
