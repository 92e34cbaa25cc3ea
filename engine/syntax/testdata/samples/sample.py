"""A small module for the golden test."""
import functools

MAX_RETRIES = 3


# Backoff doubles the delay after every failure.
def backoff(attempt: int) -> float:
    return 0.1 * 2 ** attempt


class TypeAdapter:
    """Adapts a type to a validator."""

    def __init__(self, tp):
        self.tp = tp  # the type

    @functools.cache
    @staticmethod
    def validate_python(value):
        return value

    class Config:
        strict = True


@app.get("/items")
async def include_router(router, prefix=""):
    def inner():
        pass
    return inner
