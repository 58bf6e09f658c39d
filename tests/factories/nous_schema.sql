-- ctxtui's own stand-in for the part of a nous database that ctxtui reads.
--
-- Written for ctxtui's tests from the column lists in notes/nous.md (§1.3-1.4,
-- §3.1-3.2): the same schemas, tables, column names and column types as a
-- nous database after its migrations (init.sql @159bfb74 + 017…079, 026, 070),
-- so the reader meets what it meets in production. It is not nous's SQL:
-- indexes, generated search columns and triggers that no reader touches are
-- left out, and the constraints are written our way. `{vector}` is replaced by
-- pgvector's `vector(1536)` or, on a server without pgvector, by the text
-- stand-in type that tests/pg.py creates.

CREATE SCHEMA brain;
CREATE SCHEMA heart;
CREATE SCHEMA nous_system;

-- brain.decisions: no `active` column; supersession lives in outcome + superseded_by.
CREATE TABLE brain.decisions (
    id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    agent_id               varchar(100) NOT NULL,
    description            text NOT NULL,
    context                text,
    pattern                text,
    confidence             double precision NOT NULL,
    confidence_raw         double precision,
    calibration_factor     double precision,
    calibration_applied_at timestamptz,
    category               varchar(50) NOT NULL DEFAULT 'process',
    stakes                 varchar(20) NOT NULL DEFAULT 'low',
    quality_score          double precision,
    outcome                varchar(20) DEFAULT 'pending',
    outcome_result         text,
    reviewed_at            timestamptz,
    superseded_by          uuid REFERENCES brain.decisions (id),
    session_id             varchar(100),
    reviewer               varchar(50),
    embedding              {vector},
    created_at             timestamptz DEFAULT now(),
    updated_at             timestamptz DEFAULT now(),
    CONSTRAINT decision_confidence_range CHECK (confidence >= 0 AND confidence <= 1),
    CONSTRAINT decision_outcome_known CHECK (
        outcome IN ('pending', 'success', 'partial', 'failure', 'noise', 'superseded'))
);

-- heart.episodes: `active` goes false for abandoned episodes; there is no superseded_by.
CREATE TABLE heart.episodes (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    agent_id           varchar(100) NOT NULL,
    title              varchar(500),
    summary            text NOT NULL,
    detail             text,
    started_at         timestamptz NOT NULL DEFAULT now(),
    ended_at           timestamptz,
    duration_seconds   integer,
    frame_used         varchar(100),
    "trigger"          varchar(100),
    participants       text[],
    outcome            varchar(50),
    surprise_level     double precision,
    lessons_learned    text[],
    embedding          {vector},
    tags               text[],
    active             boolean DEFAULT true,
    encoded_censors    jsonb,
    compression_tier   varchar(20) DEFAULT 'raw',
    structured_summary jsonb,
    transcript         text,
    user_id            varchar(100),
    user_display_name  varchar(100),
    compaction_count   integer NOT NULL DEFAULT 0,
    session_id         varchar(100),
    created_at         timestamptz DEFAULT now(),
    CONSTRAINT episode_outcome_known CHECK (
        outcome IN ('success', 'partial', 'failure', 'ongoing', 'abandoned'))
);

-- heart.facts: both `active` and superseded_by.
CREATE TABLE heart.facts (
    id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    agent_id                 varchar(100) NOT NULL,
    content                  text NOT NULL,
    category                 varchar(100),
    subject                  varchar(500),
    confidence               double precision DEFAULT 1.0,
    source                   varchar(500),
    source_episode_id        uuid REFERENCES heart.episodes (id),
    source_decision_id       uuid REFERENCES brain.decisions (id),
    learned_at               timestamptz NOT NULL DEFAULT now(),
    last_confirmed           timestamptz,
    confirmation_count       integer DEFAULT 0,
    superseded_by            uuid REFERENCES heart.facts (id),
    contradiction_of         uuid REFERENCES heart.facts (id),
    embedding                {vector},
    tags                     text[],
    active                   boolean DEFAULT true,
    encoded_frame            varchar(100),
    encoded_censors          jsonb,
    admission_score          double precision,
    recall_count             integer DEFAULT 0,
    last_recalled_at         timestamptz,
    admission_scores         jsonb,
    actionable               boolean,
    actionable_confidence    real,
    event_date               date,
    event_date_classified_at timestamptz,
    subject_key              varchar(200),
    attribute_key            varchar(100),
    source_ordinal           bigint,
    overrides_prior          boolean,
    entity_keys_extracted_at timestamptz,
    created_at               timestamptz DEFAULT now(),
    updated_at               timestamptz DEFAULT now(),
    CONSTRAINT fact_confidence_range CHECK (confidence >= 0 AND confidence <= 1)
);

-- heart.procedures: `active`, plus superseded_by (a plain uuid) and archived_at.
CREATE TABLE heart.procedures (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    agent_id             varchar(100) NOT NULL,
    name                 varchar(500) NOT NULL,
    domain               varchar(100),
    description          text,
    goals                text[],
    core_patterns        text[],
    core_tools           text[],
    core_concepts        text[],
    implementation_notes text[],
    activation_count     integer DEFAULT 0,
    success_count        integer DEFAULT 0,
    failure_count        integer DEFAULT 0,
    neutral_count        integer DEFAULT 0,
    last_activated       timestamptz,
    related_procedures   uuid[],
    censor_ids           uuid[],
    embedding            {vector},
    tags                 text[],
    active               boolean DEFAULT true,
    encoded_frame        varchar(100),
    encoded_censors      jsonb,
    runtime_metadata     jsonb,
    superseded_by        uuid,
    archived_at          timestamptz,
    kind                 varchar(100),
    created_at           timestamptz DEFAULT now(),
    updated_at           timestamptz DEFAULT now()
);

-- One row per LLM API call (several per turn in a tool loop).
CREATE TABLE nous_system.context_log (
    id                   text PRIMARY KEY,
    agent_id             text NOT NULL,
    session_id           text NOT NULL,
    turn_number          integer NOT NULL,
    "timestamp"          timestamptz NOT NULL DEFAULT now(),
    call_type            text NOT NULL,
    model                text NOT NULL,
    frame_id             text,
    trace_id             varchar(12),
    token_breakdown      jsonb NOT NULL DEFAULT '{}'::jsonb,
    total_tokens_est     integer NOT NULL DEFAULT 0,
    context_window_size  integer NOT NULL DEFAULT 0,
    utilization_pct      real NOT NULL DEFAULT 0,
    sections_present     text[] NOT NULL DEFAULT '{}'::text[],
    tools_count          integer NOT NULL DEFAULT 0,
    tool_names           text[],
    messages_count       integer NOT NULL DEFAULT 0,
    message_roles        jsonb,
    loaded_facts         integer NOT NULL DEFAULT 0,
    loaded_decisions     integer NOT NULL DEFAULT 0,
    loaded_procedures    integer NOT NULL DEFAULT 0,
    loaded_episodes      integer NOT NULL DEFAULT 0,
    recent_conversations integer NOT NULL DEFAULT 0,
    input_tokens_actual  integer,
    output_tokens        integer,
    cache_creation       integer,
    cache_read           integer,
    duration_ms          real,
    stop_reason          text
);
CREATE INDEX context_log_by_time ON nous_system.context_log ("timestamp" DESC);
CREATE INDEX context_log_by_turn ON nous_system.context_log (session_id, turn_number);

-- One row per retrieval; path 'context' is the per-turn ContextEngine.build.
CREATE TABLE nous_system.retrieval_log (
    id                 text PRIMARY KEY,
    agent_id           text NOT NULL,
    session_id         text,
    turn_number        integer,
    trace_id           varchar(12),
    "timestamp"        timestamptz NOT NULL DEFAULT now(),
    path               text NOT NULL,
    query              text,
    duration_ms        real,
    legs               jsonb NOT NULL DEFAULT '[]'::jsonb,
    excluded_types     jsonb NOT NULL DEFAULT '[]'::jsonb,
    n_candidates       integer NOT NULL DEFAULT 0,
    n_rendered         integer NOT NULL DEFAULT 0,
    n_expansions       integer NOT NULL DEFAULT 0,
    disposition_counts jsonb NOT NULL DEFAULT '{}'::jsonb,
    candidates         jsonb,
    expansions         jsonb NOT NULL DEFAULT '[]'::jsonb,
    truncated          boolean NOT NULL DEFAULT false
);
CREATE INDEX retrieval_log_by_time ON nous_system.retrieval_log ("timestamp" DESC);
CREATE INDEX retrieval_log_by_turn ON nous_system.retrieval_log (session_id, turn_number);

-- Per-agent lookups, as a nous database has them (the reader filters on agent_id everywhere).
CREATE INDEX decisions_by_agent ON brain.decisions (agent_id);
CREATE INDEX episodes_by_agent ON heart.episodes (agent_id);
CREATE INDEX facts_by_agent ON heart.facts (agent_id);
CREATE INDEX procedures_by_agent ON heart.procedures (agent_id);
CREATE INDEX context_log_by_agent ON nous_system.context_log (agent_id);
CREATE INDEX retrieval_log_by_agent ON nous_system.retrieval_log (agent_id);
