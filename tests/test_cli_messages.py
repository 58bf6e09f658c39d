"""A CLI that forgives (issue 24 part 4): one test per message a user meets.

Options go anywhere among positionals; a missing --db or PROJECT is one line naming it (exit 2);
a bad --budget is ctxtui's own line except on `pack`, where ctx's output stays ctx's and ctxtui's
hint follows it; the "no ctx on PATH" notice is printed once, where the version changes the answer;
no warning announces a packet that is not printed; `DIR/.context` suggests DIR; token counts say
what they count; the memory commands take PROJECT; `sweep --by-section` prints whole section names.
"""

from __future__ import annotations

import ctxtui.cli as cli
import pytest
from ctxtui.cli import common, main

from tests.app.helpers import CapturedRun, small_workspace


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path):
    return small_workspace(tmp_path / "p")


@pytest.fixture
def no_ctx(tmp_path, monkeypatch):
    """No --packer, no $CTXTUI_PACKER, no ctx on PATH: ctxtui falls back to ctx 0.8.1; each test its own notices."""
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.delenv("CTXTUI_PACKER", raising=False)
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(common, "_SAID", set())


# -- options anywhere --------------------------------------------------------------


def test_options_may_come_between_the_positionals(capsys, project):
    after = run(capsys, "explain", str(project), "Ship the parser", "--budget", "4000")
    between = run(capsys, "explain", str(project), "--budget", "4000", "Ship the parser")
    first = run(capsys, "explain", "--budget", "4000", str(project), "Ship the parser")
    assert after[0] == 0 and "Ship the parser" in after[1]
    assert between == after == first


def test_the_tui_takes_options_before_the_project(capsys, project, monkeypatch):
    runs = CapturedRun(monkeypatch)
    assert main(["--budget", "3000", str(project)]) == 0
    assert runs.app.session.project == project.absolute()


# -- --db that does not exist ----------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "{p}", "Ship", "--db", "{db}"],
        ["pack", "{p}", "--db", "{db}"],
        ["coverage", "{p}", "--db", "{db}"],
        ["pack", "--packer", "cortex", "--db", "{db}", "--query", "auth"],
        ["{p}", "--db", "{db}"],
    ],
    ids=["explain", "pack", "coverage", "pack-cortex", "tui"],
)
def test_a_db_that_does_not_exist_is_one_line_naming_it(capsys, project, tmp_path, monkeypatch, argv):
    runs = CapturedRun(monkeypatch)
    missing = tmp_path / "typo" / "missing.db"
    code, out, err = run(capsys, *(a.format(p=project, db=missing) for a in argv))
    assert (code, out) == (2, "")
    assert (
        err == f"ctxtui: --db {missing}: no such file (a memory store ctxtui reads; `ctxtui memory init` creates one)\n"
    )
    assert runs.apps == []


# -- a bad --budget --------------------------------------------------------------------


@pytest.mark.parametrize("command", ["explain", "coverage", "diff", "check"])
def test_a_bad_budget_is_ctxtuis_own_line_outside_pack(capsys, project, command):
    extra = {"explain": ["Ship"], "check": ["--max-tokens", "100"], "diff": ["--against", "100"]}.get(command, [])
    code, out, err = run(capsys, command, str(project), *extra, "--budget", "4k")
    assert code == 2 and out == ""
    assert (
        err == "ctxtui: --budget '4k': not a whole number of tokens (e.g. 4000; ctx also reads 0x200, 010 and 1_000)\n"
    )


@pytest.fixture
def terminal(monkeypatch):
    """stderr is a terminal: a person reads it (a pipe gets ctx's stderr byte for byte, no hint)."""
    monkeypatch.setattr(cli, "stderr_is_read", lambda: True)


def test_a_bad_budget_on_pack_is_ctxs_output_then_ctxtuis_hint(capsys, project, terminal):
    code, out, err = run(capsys, "pack", str(project), "--budget", "4k")
    assert code == 1
    assert out.startswith("Usage:\n  ctx agent [flags]")  # ctx's own usage, as ctx prints it
    ctx_line, hint = err.splitlines()
    assert (
        ctx_line == 'Error: invalid argument "4k" for "--budget" flag: strconv.ParseInt: parsing "4k": invalid syntax'
    )
    assert hint.startswith("ctxtui: hint: --budget '4k': not a whole number of tokens")


def test_to_a_pipe_pack_s_stderr_stays_ctxs_alone(capsys, project):
    code, out, err = run(capsys, "pack", str(project), "--budget", "4k")
    assert code == 1 and out.startswith("Usage:") and "hint" not in err and err.count("\n") == 1


# -- the "no ctx on PATH" notice ------------------------------------------------------------


def test_pack_says_once_which_ctx_it_shows_when_none_is_on_path(capsys, project, no_ctx):
    code, out, err = run(capsys, "pack", str(project), "--now", "2026-11-21T23:56:08Z")
    assert code == 0 and out.startswith("# Context Packet")
    assert err == "ctxtui: notice: no ctx on PATH: showing ctx 0.8.1 (--packer chooses)\n"


def test_diff_says_it_once_though_it_builds_two_packets(capsys, project, no_ctx):
    code, _, err = run(capsys, "diff", str(project), "--budget", "30", "--against", "100000")
    assert code == 0 and err.count("no ctx on PATH") <= 1


def test_no_notice_where_both_versions_answer_the_same(capsys, project, no_ctx):
    code, out, err = run(capsys, "explain", str(project), "Ship the parser", "--budget", "100000")
    assert code == 0 and "Ship the parser" in out
    assert "no ctx on PATH" not in err
    assert "no ctx on PATH" not in run(capsys, "tune", str(project), "--set", "token_budget=5000")[2]


def test_the_notice_says_why_where_the_versions_differ(capsys, tmp_path, no_ctx, monkeypatch):
    # 0.8.1 prints absolute read-order paths (tier-1 tokens) and caps tasks at what tier 1 left: at a tight
    # budget a task fits in one version and not in the other
    project = small_workspace(tmp_path / "q")
    answers = {}
    for budget in range(0, 300, 10):
        monkeypatch.setattr(common, "_SAID", set())
        answers[budget] = run(capsys, "explain", str(project), "Ship", "--budget", str(budget))[2]
    said = [err for err in answers.values() if "no ctx on PATH" in err]
    assert said and len(said) < len(answers)  # some budgets differ, some do not
    assert all("ctx 0.8.0 answers differently here (--packer ctx-0.8.0)" in err for err in said)


# -- no packet announced that is not printed -------------------------------------------------


@pytest.mark.parametrize(
    "argv", [["explain", "{p}", "Ship"], ["coverage", "{p}"], ["check", "{p}", "--max-tokens", "9"]]
)
def test_a_refusal_warning_announces_no_packet_below(capsys, project, monkeypatch, argv):
    monkeypatch.delenv("CTXTUI_IGNORE_REFUSAL")
    _, _, err = run(capsys, *(a.format(p=project) for a in argv))
    assert "would refuse this workspace (git working tree required" in err
    assert "packet below" not in err and "what follows is about the packet it would build otherwise" in err


# -- PROJECT: the context folder itself, a folder that is not there --------------------------


def test_the_context_folder_itself_suggests_its_project(capsys, project, monkeypatch):
    monkeypatch.chdir(project.parent)
    code, out, err = run(capsys, "explain", "p/.context", "Ship")
    assert (code, out) == (2, "")
    assert err.endswith("the project is the folder that holds .context/: p (try `ctxtui explain p`)\n")
    runs = CapturedRun(monkeypatch)
    code, _, err = run(capsys, "p/.context")
    assert code == 2 and runs.apps == [] and "(try `ctxtui p`)" in err


def test_pack_in_the_context_folder_prints_ctxs_refusal_then_the_folder_to_use(capsys, project, monkeypatch, terminal):
    monkeypatch.delenv("CTXTUI_IGNORE_REFUSAL")
    monkeypatch.chdir(project.parent)
    code, out, err = run(capsys, "pack", "p/.context")
    assert code == 1 and out == ""
    assert err.startswith("ctx: rc.RC: no .context/ at $PWD")  # ctx's words first, untouched
    assert (
        err.splitlines()[-1] == "ctxtui: hint: the project is the folder that holds .context/: p (try `ctxtui pack p`)"
    )


@pytest.mark.parametrize("argv", [["pack", "{x}"], ["explain", "{x}", "q"], ["{x}"]], ids=["pack", "explain", "tui"])
def test_a_project_that_is_not_there_is_one_line(capsys, tmp_path, monkeypatch, argv):
    runs = CapturedRun(monkeypatch)
    missing = tmp_path / "nope"
    code, out, err = run(capsys, *(a.format(x=missing) for a in argv))
    assert (code, out, err) == (2, "", f"ctxtui: {missing}: no such folder\n")
    assert runs.apps == []


def test_a_typo_under_a_project_suggests_the_project(capsys, project, monkeypatch):
    monkeypatch.chdir(project.parent)
    code, out, err = run(capsys, "coverage", "p/.contxt")
    assert (code, out) == (2, "")
    assert (
        err
        == "ctxtui: p/.contxt: no such folder; the project is the folder that holds .context/: p (try `ctxtui coverage p`)\n"
    )


# -- token counts say what they count --------------------------------------------------------


def test_check_says_what_it_counted_and_how_that_differs_from_the_used_line(capsys, project):
    code, out, _ = run(capsys, "check", str(project), "--budget", "4000", "--max-tokens", "100000")
    assert code == 0
    assert "tokens in the whole rendered Markdown (ctx's estimate), not the packet's own Used line (~" in out
    out = run(capsys, "check", str(project), "--max-tokens", "100000", "--tokenizer", "o200k_base")[1]
    assert "tokens in the whole rendered Markdown (o200k_base)" in out


def test_sweep_and_diff_name_their_used_column(capsys, project):
    assert "used: the packet's Used line" in run(capsys, "sweep", str(project), "--to", "1000")[1]
    out = run(capsys, "diff", str(project), "--budget", "30", "--against", "100000")[1]
    assert "used (the packet's Used line)" in out


# -- memory commands take PROJECT --------------------------------------------------------------


def test_memory_commands_take_project_like_the_others(capsys, project):
    db = project / ".context" / "memory.db"
    assert run(capsys, "memory", "init", str(project))[:2] == (0, f"created {db}\n")
    code, out, _ = run(capsys, "memory", "add", str(project), "--title", "Joined", "--kind", "fact")
    assert code == 0 and out.endswith(f" to {db}\n")
    assert run(capsys, "memory", "add", "--title", "x", str(project / "nope"))[:2] == (2, "")


# -- sweep --by-section ---------------------------------------------------------------------


def test_sweep_by_section_prints_whole_section_names(capsys, project):
    out = run(capsys, "sweep", str(project), "--to", "1000", "--by-section")[1]
    header = out.splitlines()[0].split()
    assert "constitution" in header and "constitutio" not in header
    assert all(len(line.split()) == len(header) for line in out.splitlines()[1:3])
