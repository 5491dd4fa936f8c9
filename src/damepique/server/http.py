"""What the JSON routes share: rules from a request body, errors as responses."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from damepique.engine import PRESETS, Rules, RulesError


def rules_from_body(body: dict[str, Any]) -> Rules:
    """Rules from ``{"preset": name, "rules": {...}}``: the preset, then the
    options that change it. Raises RulesError naming what is wrong."""
    preset = body.get("preset")
    base: dict[str, Any] = {}
    if preset is not None:
        if preset not in PRESETS:
            raise RulesError(f"unknown preset {str(preset)[:40]!r}")
        base = PRESETS[preset].to_json()
    extra = body.get("rules") or {}
    if not isinstance(extra, dict):
        raise RulesError("rules must be an object")
    return Rules.from_json(base | extra)


def error_response(code: str, reason: str, status: int = 400) -> JSONResponse:
    """An error with a stable code and a readable reason."""
    return JSONResponse({"error": code, "code": code, "reason": reason}, status_code=status)
