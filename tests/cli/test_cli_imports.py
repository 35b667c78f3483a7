"""What ``hexarena`` imports to parse its command line: every engine, bot and check-bot process the suite and bot
authors start pays for it, so the web stack of the SDK's bot server (uvicorn, Starlette, pydantic) and check-bot's
protocol adapters load only in the commands that use them. Checked in a fresh interpreter (``sys.modules``), not by
timing."""

from __future__ import annotations

import json
import subprocess
import sys

#: modules the command line itself never needs
NOT_AT_START = ("uvicorn", "starlette", "pydantic", "fastapi", "hexarena_sdk.server", "hexarena.checkbot.run")


def imported_after(code: str) -> set[str]:
    probe = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_command_line_loads_no_web_stack_and_no_check_bot_adapters() -> None:
    loaded = imported_after("import hexarena.cli")
    assert [m for m in NOT_AT_START if m in loaded] == []


def test_the_packages_still_export_their_names_when_first_asked() -> None:
    code = (
        "import hexarena_sdk, hexarena.checkbot\n"
        "assert callable(hexarena_sdk.server.make_app)\n"  # a submodule, as when the package imported it up front
        "from hexarena_sdk import BaseBot, Capabilities, run\n"
        "from hexarena.checkbot import PASS, check_bot\n"
        "from hexarena.bots.sdk import *\n"
        "assert BaseBot.__module__ == 'hexarena_sdk.bot' and callable(run) and callable(check_bot)\n"
        "assert set(hexarena_sdk.__all__) <= set(dir(hexarena_sdk)), set(hexarena_sdk.__all__) - set(dir(hexarena_sdk))\n"
        "try:\n    hexarena_sdk.no_such_name\nexcept AttributeError:\n    pass\nelse:\n    raise SystemExit('no error')\n"
    )
    assert "uvicorn" in imported_after(code)  # the bot server's names bring its web stack, once asked for
