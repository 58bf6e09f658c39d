"""`.ctxrc` and CTX_TOKEN_BUDGET, as ctx honours them."""

from __future__ import annotations

from ctxtui.engine.sources.ctxrc import DEFAULT_BUDGET, read_ctxrc, resolve_budget


def test_precedence(tmp_path):
    (tmp_path / ".ctxrc").write_text("token_budget: 5000\n")
    config = read_ctxrc(tmp_path)
    assert resolve_budget(100, {"CTX_TOKEN_BUDGET": "200"}, config)[:2] == (100, "flag")
    assert resolve_budget(None, {"CTX_TOKEN_BUDGET": "200"}, config)[:2] == (200, "environment")
    assert resolve_budget(None, {}, config)[:2] == (5000, ".ctxrc")
    assert resolve_budget(None, {}, read_ctxrc(tmp_path / "none"))[:2] == (DEFAULT_BUDGET, "default")


def test_bad_environment_value_is_ignored_with_a_problem(tmp_path):
    budget, source, problems = resolve_budget(None, {"CTX_TOKEN_BUDGET": "lots"}, read_ctxrc(tmp_path))
    assert (budget, source) == (8000, "default") and "not a plain whole number" in str(problems[0])


def test_percentages_are_clamped(tmp_path):
    (tmp_path / ".ctxrc").write_text("task_budget_pct: 1.7\nconvention_budget_pct: -0.2\n")
    from ctxtui.engine.packers.ctx.knobs import CtxKnobs

    policy = CtxKnobs.from_config(read_ctxrc(tmp_path))
    assert (policy.task_pct, policy.convention_pct) == (1.0, 0.0)


def test_broken_ctxrc_is_reported_not_fatal(tmp_path):
    (tmp_path / ".ctxrc").write_text("token_budget: [1, 2\n")
    config = read_ctxrc(tmp_path)
    assert config.token_budget is None and "invalid YAML" in str(config.problems[0])
    (tmp_path / ".ctxrc").write_text("token_budget: lots\n")
    assert "cannot unmarshal" in str(read_ctxrc(tmp_path).problems[0])
