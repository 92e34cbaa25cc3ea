"""Type adapters."""
import json
from typing import Any


class TypeAdapter:
    """Validates and serializes values of one type."""

    def __init__(self, type_, config=None):
        self.type = type_
        self.config = config or {}

    def validate_python(self, obj: Any) -> Any:
        """Validate a Python object."""
        if obj is None:
            raise ValueError("None is not allowed")
        return obj

    def validate_json(self, data: str) -> Any:
        """Validate a JSON string."""
        return self.validate_python(json.loads(data))

    @property
    def core_schema(self):
        return {"type": str(self.type)}

    def dump_json(self, obj: Any) -> str:
        return json.dumps(obj, default=str)


def include_router(app, router, prefix=""):
    """Mount a router's routes on the app."""
    for route in router.routes:
        app.routes.append((prefix + route.path, route))


async def serve(app):
    await app.start()
