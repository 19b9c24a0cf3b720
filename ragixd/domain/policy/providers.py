"""Provider token shapes: secrets that announce themselves with a fixed prefix or layout.

Owns the table of known credential formats (cloud, SaaS, AI providers, package registries).
Each row is data: rule id, family, regex, description. The random part of each token must
not be a placeholder (`ghp_xxxx…`, `AKIA…EXAMPLE`), which `accept_token` checks.
"""

from __future__ import annotations

import re

from .lazy import lazy_compile
from .rules import SECRET, Rule
from .values import is_placeholder, looks_random, shannon, without_keyboard_runs

_L = r"(?<![A-Za-z0-9])"
_R = r"(?![A-Za-z0-9])"

# (id suffix, family, prefilter needles, what it is, pattern). `(?P<body>…)` marks the random part when present.
PROVIDER_TOKENS: tuple[tuple[str, str, tuple[str, ...], str, str], ...] = (
    ("aws_access_key_id", "aws", ('akia', 'asia', 'abia', 'acca', 'a3t'), "AWS access key id",
     _L + r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])(?P<body>[A-Z0-9]{16})" + _R),
    ("aws_session_token", "aws", ('fwogzxivyxdze', 'iqojb3jpz2lux2vj'), "AWS session token",
     r"(?:FwoGZXIvYXdzE|IQoJb3JpZ2luX2Vj)(?P<body>[A-Za-z0-9/+=]{100,})"),
    ("aws_bedrock_key", "aws", ('absk', 'bedrock-api-key-'), "Amazon Bedrock API key",
     _L + r"(?:ABSK(?P<body>[A-Za-z0-9+/]{100,}={0,2})|bedrock-api-key-[A-Za-z0-9+/=]{20,})"),
    ("gcp_api_key", "gcp", ('aiza',), "Google API key",
     _L + r"AIza(?P<body>[0-9A-Za-z_\-]{35})"),
    ("gcp_oauth_token", "gcp", ('ya29.',), "Google OAuth access token",
     _L + r"ya29\.(?P<body>[0-9A-Za-z_\-]{30,})"),
    ("gcp_client_secret", "gcp", ('gocspx-',), "Google OAuth client secret",
     _L + r"GOCSPX-(?P<body>[A-Za-z0-9_\-]{28})"),
    ("azure_ad_client_secret", "azure", ('q~',), "Azure AD client secret",
     r"(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.]{3}\dQ~(?P<body>[A-Za-z0-9_~.\-]{31,34})(?![A-Za-z0-9_~.\-])"),
    ("azure_connection_string", "azure", ('accountkey', 'sharedaccesskey', 'sharedsecretvalue'),
     "Azure storage / service bus key",
     r"(?i)(?:AccountKey|SharedAccessKey|SharedSecretValue)\s*=\s*(?P<body>[A-Za-z0-9+/]{30,}={0,2})"),
    ("azure_app_config", "azure", ('.azconfig.io',), "Azure App Configuration connection string",
     r"(?i)\.azconfig\.io;Id=[^;\s]{2,};Secret=(?P<body>[A-Za-z0-9+/=]{20,})"),
    # a SAS URL or connection string: the signed version date, then the signature among the
    # other query fields (sp, st, se, spr, sr, ss, srt, sip...)
    ("azure_sas_token", "azure", ('sig=',), "Azure shared access signature",
     r"(?i)(?<![a-z0-9])sv=\d{4}-\d{2}-\d{2}(?:&[a-z]{2,5}=[^&\s\"'<>]{0,80}){0,12}?&sig="
     r"(?P<body>[a-z0-9%+/]{30,}(?:%3d|=){0,2})"),
    ("teams_webhook", "azure", ('webhook.office.com',), "Microsoft Teams incoming webhook",
     r"(?i)webhook\.office\.com/webhookb2/[a-z0-9\-]{20,}@[a-z0-9\-]{20,}/IncomingWebhook/(?P<body>[a-z0-9]{32})/"),
    ("github_token", "github", ('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), "GitHub token",
     _L + r"gh[pousr]_(?P<body>[A-Za-z0-9]{36,255})" + _R),
    ("github_fine_grained_pat", "github", ('github_pat_',), "GitHub fine-grained token",
     _L + r"github_pat_(?P<body>[A-Za-z0-9_]{50,255})"),
    ("gitlab_token", "gitlab", ('gl',), "GitLab token",
     _L + r"gl(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent|ffct|cf|wt)-(?P<body>[A-Za-z0-9_\-.]{20,})"),
    ("gitlab_runner_token", "gitlab", ('gr1348941',), "GitLab runner registration token",
     _L + r"GR1348941(?P<body>[A-Za-z0-9_\-]{20,})"),
    ("gitlab_session", "gitlab", ('_gitlab_session',), "GitLab session cookie",
     r"_gitlab_session=(?P<body>[0-9a-z]{32})"),
    ("slack_token", "slack", ('xox',), "Slack token",
     _L + r"xox[abposre]-(?P<body>[0-9A-Za-z\-]{8,})"),
    ("slack_config_token", "slack", ('xoxe.',), "Slack configuration token",
     _L + r"xoxe\.xox[bp]-\d-(?P<body>[A-Za-z0-9]{100,})"),
    ("slack_app_token", "slack", ('xapp-',), "Slack app-level token",
     _L + r"xapp-\d-[A-Z0-9]+-\d+-(?P<body>[a-z0-9]{32,})"),
    ("slack_webhook", "slack", ('hooks.slack.com',), "Slack webhook URL",
     r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<body>[A-Za-z0-9+/]{30,})"),
    ("stripe_key", "stripe", ('_live_', '_test_', '_prod_'), "Stripe secret key",
     _L + r"(?:sk|rk)_(?:live|test|prod)_(?P<body>[A-Za-z0-9]{16,})"),
    ("stripe_webhook_secret", "stripe", ('whsec_',), "Stripe webhook secret",
     _L + r"whsec_(?P<body>[A-Za-z0-9]{32,})"),
    ("anthropic_key", "anthropic", ('sk-ant-',), "Anthropic API key",
     _L + r"sk-ant-(?:api|admin|sid|oat|ort)\d{2}-(?P<body>[A-Za-z0-9_\-]{40,})"),
    ("anthropic_key_layout", "anthropic", ('sk-ant-',), "Anthropic API key",
     _L + r"sk-ant-(?:(?:api03|admin01)-(?P<body>[A-Za-z0-9_\-]{93}AA)|oat01-[A-Za-z0-9_\-]{95})(?![A-Za-z0-9_\-])"),
    ("openai_key", "openai", ('t3blbkfj',), "OpenAI API key",
     _L + r"sk-(?:proj-|svcacct-|admin-|None-|service-account-[a-z0-9\-]{0,40}-)?"
     r"(?P<body>[A-Za-z0-9_\-]{16,}T3BlbkFJ[A-Za-z0-9_\-]{16,})"),
    ("openai_project_key", "openai", ('sk-proj-', 'sk-svcacct-', 'sk-admin-'), "OpenAI API key",
     _L + r"sk-(?:proj|svcacct|admin)-(?P<body>[A-Za-z0-9_\-]{40,})"),
    ("sk_api_key", "ai_provider", ('sk-',), "provider API key (sk-…)",
     _L + r"sk-(?P<body>[A-Za-z0-9]{32,})" + _R),
    ("huggingface_token", "huggingface", ('hf_', 'api_org_'), "Hugging Face token",
     _L + r"(?:hf_|api_org_)(?P<body>[A-Za-z0-9]{30,40})" + _R),
    ("groq_key", "ai_provider", ('gsk_',), "Groq API key",
     _L + r"gsk_(?P<body>[A-Za-z0-9]{48,56})" + _R),
    ("perplexity_key", "ai_provider", ('pplx-',), "Perplexity API key",
     _L + r"pplx-(?P<body>[A-Za-z0-9]{40,56})" + _R),
    ("xai_key", "ai_provider", ('xai-',), "xAI API key",
     _L + r"xai-(?P<body>[A-Za-z0-9]{70,90})" + _R),
    ("replicate_token", "ai_provider", ('r8_',), "Replicate API token",
     _L + r"r8_(?P<body>[A-Za-z0-9]{37})" + _R),
    ("langsmith_key", "ai_provider", ('lsv2_',), "LangSmith API key",
     _L + r"lsv2_(?:pt|sk)_(?P<body>[a-f0-9]{32})_[a-f0-9]{10}"),
    ("twilio_api_key", "twilio", ('sk',), "Twilio API key",
     _L + r"SK(?P<body>[0-9a-fA-F]{32})" + _R),
    ("sendgrid_key", "sendgrid", ('sg.',), "SendGrid API key",
     _L + r"SG\.(?P<body>[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64})"),
    ("npm_token", "npm", ('npm_',), "npm access token",
     _L + r"npm_(?P<body>[A-Za-z0-9]{36})" + _R),
    ("pypi_token", "pypi", ('pypi-',), "PyPI upload token",
     _L + r"pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)(?P<body>[A-Za-z0-9_\-]{50,})"),
    ("rubygems_token", "rubygems", ('rubygems_',), "RubyGems API token",
     _L + r"rubygems_(?P<body>[a-f0-9]{48})" + _R),
    ("nuget_key", "nuget", ('oy2',), "NuGet API key",
     _L + r"oy2(?P<body>[a-z0-9]{43})" + _R),
    ("clojars_token", "clojars", ('clojars_',), "Clojars deploy token",
     _L + r"CLOJARS_(?P<body>[a-z0-9]{60})" + _R),
    ("discord_bot_token", "discord", ('.',), "Discord bot token",
     _L + r"[MNO][A-Za-z\d_\-]{23,27}\.[A-Za-z\d_\-]{6,7}\.(?P<body>[A-Za-z\d_\-]{27,40})" + _R),
    ("discord_webhook", "discord", ('/api/webhooks/',), "Discord webhook URL",
     r"discord(?:app)?\.com/api/webhooks/\d+/(?P<body>[A-Za-z0-9_\-]{60,})"),
    ("telegram_bot_token", "telegram", (':',), "Telegram bot token",
     _L + r"\d{8,10}:(?P<body>[A-Za-z0-9_\-]{35})" + _R),
    ("mailgun_key", "mailgun", ('key-',), "Mailgun API key",
     _L + r"(?:key|pubkey)-(?P<body>[a-f0-9]{32})" + _R),
    ("mailgun_signing_key", "mailgun", ('-',), "Mailgun signing key",
     _L + r"(?P<body>[a-f0-9]{32})-[a-f0-9]{8}-[a-f0-9]{8}" + _R),
    ("mailchimp_key", "mailchimp", ('-us',), "Mailchimp API key",
     _L + r"(?P<body>[0-9a-f]{32})-us\d{1,2}" + _R),
    ("shopify_token", "shopify", ('shpat_', 'shpca_', 'shppa_', 'shpss_'), "Shopify token",
     _L + r"shp(?:at|ca|pa|ss)_(?P<body>[a-fA-F0-9]{32})" + _R),
    ("digitalocean_token", "digitalocean", ('_v1_',), "DigitalOcean token",
     _L + r"do[opr]_v1_(?P<body>[a-f0-9]{64})" + _R),
    ("doppler_token", "doppler", ('dp.',), "Doppler token",
     _L + r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?P<body>[A-Za-z0-9]{40,})"),
    ("dynatrace_token", "dynatrace", ('dt0c01.',), "Dynatrace token",
     _L + r"dt0c01\.[A-Za-z0-9]{24}\.(?P<body>[A-Za-z0-9]{64})"),
    ("postman_key", "postman", ('pmak-',), "Postman API key",
     _L + r"PMAK-[a-fA-F0-9]{24}-(?P<body>[a-fA-F0-9]{34})"),
    ("pulumi_token", "pulumi", ('pul-',), "Pulumi access token",
     _L + r"pul-(?P<body>[a-f0-9]{40})" + _R),
    ("readme_key", "readme", ('rdme_',), "ReadMe API key",
     _L + r"rdme_(?P<body>[a-z0-9]{70})" + _R),
    ("sentry_token", "sentry", ('sntrys_', 'sntryu_'), "Sentry auth token",
     _L + r"sntry[su]_(?P<body>[A-Za-z0-9_=+/]{40,})"),
    ("grafana_token", "grafana", ('glc_', 'glsa_'), "Grafana token",
     _L + r"(?:glc_(?P<body>[A-Za-z0-9+/]{32,}={0,2})|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})"),
    ("atlassian_token", "atlassian", ('atatt3', 'atctt3'), "Atlassian API token",
     _L + r"AT[AC]TT3(?P<body>[A-Za-z0-9_\-=]{150,})"),
    ("newrelic_key", "newrelic", ('nrak-', 'nrii-', 'nrjs-', 'nrra-', 'nraa-'), "New Relic key",
     _L + r"NR(?:AK|II|JS|RA|AA)-(?P<body>[A-Za-z0-9]{19,32})" + _R),
    ("linear_key", "linear", ('lin_api_', 'lin_oauth_'), "Linear API key",
     _L + r"lin_(?:api|oauth)_(?P<body>[A-Za-z0-9]{40})" + _R),
    ("notion_token", "notion", ('ntn_', 'secret_'), "Notion token",
     _L + r"(?:ntn_\d{11}|secret_)(?P<body>[A-Za-z0-9]{32,43})" + _R),
    ("planetscale_token", "planetscale", ('pscale_',), "PlanetScale token",
     _L + r"pscale_(?:tkn|oauth|pw)_(?P<body>[A-Za-z0-9=\-_.]{32,64})"),
    ("databricks_token", "databricks", ('dapi',), "Databricks token",
     _L + r"dapi(?P<body>[a-f0-9]{32})(?:-\d)?" + _R),
    ("flutterwave_key", "flutterwave", ('flwseck', 'flwpubk'), "Flutterwave key",
     _L + r"FLW(?:SECK|PUBK)(?:_TEST)?-(?P<body>[a-hA-H0-9]{12,32})(?:-X)?" + _R),
    ("frameio_token", "frameio", ('fio-u-',), "Frame.io token",
     _L + r"fio-u-(?P<body>[A-Za-z0-9\-_=]{64})"),
    ("duffel_token", "duffel", ('duffel_',), "Duffel token",
     _L + r"duffel_(?:test|live)_(?P<body>[A-Za-z0-9_\-=]{43})"),
    ("easypost_key", "easypost", ('ezak', 'eztk'), "EasyPost key",
     _L + r"EZ[AT]K(?P<body>[A-Za-z0-9]{54})" + _R),
    ("flyio_token", "flyio", ('flyv1', 'fo1_', 'fm1', 'fm2'), "Fly.io token",
     r"(?:FlyV1 fm\d_|fo1_|fm[12][ar]?_)(?P<body>[A-Za-z0-9+/=,_\-]{43,})"),
    ("harness_token", "harness", ('pat.', 'sat.'), "Harness token",
     _L + r"(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[0-9a-f]{24}\.(?P<body>[A-Za-z0-9]{20})" + _R),
    ("terraform_token", "hashicorp", ('.atlasv1.',), "Terraform Cloud token",
     _L + r"[A-Za-z0-9]{14}\.atlasv1\.(?P<body>[A-Za-z0-9\-_=]{60,70})"),
    ("vault_token", "hashicorp", ('hvs.', 'hvb.', 'hvr.'), "HashiCorp Vault token",
     _L + r"hv[sbr]\.(?P<body>[A-Za-z0-9_\-]{90,})"),
    ("heroku_key", "heroku", ('hrku-',), "Heroku API key",
     _L + r"HRKU-(?P<body>[A-Za-z0-9_\-]{58,60})"),
    ("infracost_token", "infracost", ('ico-',), "Infracost token",
     _L + r"ico-(?P<body>[A-Za-z0-9]{32})" + _R),
    ("octopus_key", "octopus", ('api-',), "Octopus Deploy API key",
     _L + r"API-(?P<body>[A-Z0-9]{26})" + _R),
    ("prefect_key", "prefect", ('pnu_',), "Prefect API key",
     _L + r"pnu_(?P<body>[A-Za-z0-9]{36})" + _R),
    ("scalingo_token", "scalingo", ('tk-us-',), "Scalingo token",
     _L + r"tk-us-(?P<body>[A-Za-z0-9_\-]{48})"),
    ("square_token", "square", ('sq0atp-', 'sq0csp-', 'eaaa'), "Square token",
     _L + r"(?:sq0(?:atp|csp)-(?P<body>[A-Za-z0-9_\-]{22,43})|EAAA[A-Za-z0-9_\-+=]{60})"),
    ("facebook_token", "facebook", ('eaam', 'eaac'), "Facebook access token",
     _L + r"EAA[MC](?P<body>[A-Za-z0-9]{100,})"),
    ("twitter_bearer", "twitter", ('aaaaaaaaaaaaaaaaaaaaaa',), "Twitter bearer token",
     _L + r"A{22}(?P<body>[A-Za-z0-9%]{80,})"),
    ("typeform_token", "typeform", ('tfp_',), "Typeform token",
     _L + r"tfp_(?P<body>[A-Za-z0-9_\-=.]{59})"),
    ("yandex_token", "yandex", ('t1.', 'y0_', 'y1_', 'y2_', 'y3_', 'aqvn'), "Yandex token",
     _L + r"(?:t1\.[A-Za-z0-9_\-]+={0,2}\.(?P<body>[A-Za-z0-9_\-]{86}={0,2})|y[0-3]_[A-Za-z0-9_\-]{35,}"
     r"|AQVN[A-Za-z0-9_\-]{35,38})"),
    ("sourcegraph_token", "sourcegraph", ('sgp_',), "Sourcegraph token",
     _L + r"sgp_(?:[A-Fa-f0-9]{16}_|local_)?(?P<body>[A-Fa-f0-9]{40})" + _R),
    ("sonar_token", "sonar", ('sqco_', 'squ_', 'sqa_', 'sqp_'), "SonarQube / SonarCloud token",
     _L + r"sq(?:co|[uap])_(?P<body>[A-Za-z0-9]{40,})" + _R),
    ("cloudflare_origin_ca", "cloudflare", ('v1.0-',), "Cloudflare origin CA key",
     _L + r"v1\.0-[a-f0-9]{24}-(?P<body>[a-f0-9]{146})"),
    ("alibaba_key_id", "alibaba", ('ltai',), "Alibaba Cloud access key id",
     _L + r"LTAI(?P<body>[A-Za-z0-9]{20})" + _R),
    ("onepassword_secret_key", "1password", ('a3-',), "1Password secret key",
     _L + r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-"
     r"(?P<body>[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})" + _R),
    ("onepassword_service_token", "1password", ('ops_eyj',), "1Password service token",
     _L + r"ops_eyJ(?P<body>[A-Za-z0-9+/]{200,})"),
    ("artifactory_token", "artifactory", ('akcp', 'cmvmd'), "Artifactory token",
     _L + r"(?:AKCp|cmVmd)(?P<body>[A-Za-z0-9]{59,69})" + _R),
    ("age_secret_key", "age", ('age-secret-key-1',), "age secret key",
     r"AGE-SECRET-KEY-1(?P<body>[0-9A-Z]{58})"),
    ("launchdarkly_key", "launchdarkly", ('api-',), "LaunchDarkly access token",
     _L + r"api-(?P<body>[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12})" + _R),
    ("openshift_token", "openshift", ('sha256~',), "OpenShift user token",
     _L + r"sha256~(?P<body>[A-Za-z0-9_\-]{43})" + _R),
    ("airtable_pat", "airtable", ('pat',), "Airtable personal token",
     _L + r"pat[A-Za-z0-9]{14}\.(?P<body>[a-f0-9]{64})" + _R),
    ("bitbucket_app_password", "atlassian", ('atbb',), "Bitbucket app password",
     _L + r"ATBB(?P<body>[A-Za-z0-9_=.\-]{28,})"),
    ("mapbox_secret_token", "mapbox", ('sk.eyj',), "Mapbox secret token",
     _L + r"sk\.eyJ[A-Za-z0-9_\-]+\.(?P<body>[A-Za-z0-9_\-]{20,})"),
    ("contentful_token", "contentful", ('cfpat-',), "Contentful token",
     _L + r"CFPAT-(?P<body>[A-Za-z0-9_\-]{43})"),
    ("supabase_token", "supabase", ('sbp_',), "Supabase token",
     _L + r"sbp_(?P<body>[a-f0-9]{40})" + _R),
    ("asana_pat", "asana", (':',), "Asana token",
     _L + r"[0-9]/\d{10,16}(?:/\d{10,16})?:(?P<body>[A-Za-z0-9]{32})" + _R),
    ("dropbox_token", "dropbox", ('sl.',), "Dropbox token",
     _L + r"sl\.(?P<body>[A-Za-z0-9\-=_]{130,})"),
    # Session 16: layouts read from every gitleaks rule, each checked on generated samples
    # (docs/policy-history.md, "Every gitleaks rule").
    ("adobe_client_secret", "adobe", ('p8e-',), "Adobe client secret",
     _L + r"p8e-(?P<body>[A-Za-z0-9]{32})" + _R),
    ("adyen_api_key", "adyen", ('aqe',), "Adyen API key",
     _L + r"AQE[a-z0-9]{5,}\.(?P<body>[A-Za-z0-9_=\-]{50,80})(?![A-Za-z0-9_=\-])"),
    ("authress_key", "authress", ('.acc_', '.acc-'), "Authress service client key",
     _L + r"(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_\-][A-Za-z0-9\-]{10,32}"
     r"\.(?P<body>[A-Za-z0-9+/_=\-]{30,120})"),
    ("braintree_token", "braintree", ('access_token$', 'production_', 'sandbox_'), "Braintree token",
     _L + r"(?:access_token\$(?:production|sandbox)\$(?P<body>[a-z0-9]{16})"
     r"|(?:production|sandbox)_(?=[a-z0-9_]{0,23}[a-z][0-9]+[a-z])[a-z0-9]{8}_[a-z0-9]{16})" + _R),
    ("chieftools_token", "chieftools", ('ctp_', 'cto_', 'ctr_'), "Chief Tools token",
     _L + r"ct[opr]_(?P<body>[A-Za-z0-9]{30,248})" + _R),
    ("datafactory_shir_key", "azure", ('ir@',), "Azure Data Factory integration runtime key",
     _L + r"IR@[0-9A-Za-z\-]{36}@[^@\s]{1,80}@[0-9A-Za-z\-=]*@(?P<body>[A-Za-z0-9+/=]{44})"),
    ("defined_networking_key", "definednetworking", ('dnkey-',), "Defined Networking API key",
     _L + r"dnkey-[A-Za-z0-9=_\-]{26}-(?P<body>[A-Za-z0-9=_\-]{52})"),
    ("django_insecure_key", "django", ('django-insecure-',), "Django secret key",
     _L + r"django-insecure-(?P<body>[^\s\"'`]{20,250})"),
    ("grafana_api_key", "grafana", ('eyjrijoi',), "Grafana API key",
     _L + r"eyJrIjoi(?P<body>[A-Za-z0-9]{70,400}={0,3})"),
    ("intra42_secret", "intra42", ('s-s4t2',), "42 intranet client secret",
     _L + r"s-s4t2(?:ud|af)-(?P<body>[a-fA-F0-9]{64})" + _R),
    ("lob_key", "lob", ('live_', 'test_'), "Lob API key",
     _L + r"(?:live|test)_(?:pub_(?P<body>[a-f0-9]{31})|[a-f0-9]{35})" + _R),
    ("mapbox_public_token", "mapbox", ('pk.',), "Mapbox token",
     _L + r"pk\.(?P<body>[A-Za-z0-9]{60})\.[A-Za-z0-9]{22}" + _R),
    ("newrelic_insert_key", "newrelic", ('nrii-',), "New Relic insert key",
     _L + r"NRII-(?P<body>[A-Za-z0-9\-]{32})" + _R),
    ("plaid_access_token", "plaid", ('access-sandbox-', 'access-development-', 'access-production-'),
     "Plaid access token",
     _L + r"access-(?:sandbox|development|production)-(?P<body>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
     + _R),
    ("sendgrid_key_flat", "sendgrid", ('sg.',), "SendGrid API key",
     _L + r"SG\.(?P<body>[A-Za-z0-9=_\-.]{66})(?![A-Za-z0-9=_\-.])"),
    ("sendinblue_key", "sendinblue", ('xkeysib-',), "Brevo (Sendinblue) API key",
     _L + r"xkeysib-[a-f0-9]{64}-(?P<body>[A-Za-z0-9]{16})" + _R),
    ("settlemint_token", "settlemint", ('sm_aat_', 'sm_pat_', 'sm_sat_'), "SettleMint token",
     _L + r"sm_(?:aat|pat|sat)_(?P<body>[A-Za-z0-9]{12,})" + _R),
    ("shippo_token", "shippo", ('shippo_',), "Shippo API token",
     _L + r"shippo_(?:live|test)_(?P<body>[a-fA-F0-9]{40})" + _R),
    # session 29: layouts whose random part is hex, a UUID or lower-case base32, which the
    # entropy rule leaves to hashes and ids when no credential word stands near
    ("openrouter_key", "ai_provider", ('sk-or-v1-',), "OpenRouter API key",
     _L + r"sk-or-v1-(?P<body>[0-9a-f]{64})" + _R),
    ("langfuse_secret_key", "ai_provider", ('sk-lf-',), "Langfuse secret key",
     _L + r"sk-lf-(?P<body>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})" + _R),
    ("elevenlabs_key", "ai_provider", ('sk_',), "ElevenLabs API key",
     _L + r"sk_(?P<body>[0-9a-f]{48})" + _R),
    ("firecrawl_key", "ai_provider", ('fc-',), "Firecrawl API key",
     _L + r"fc-(?P<body>[0-9a-f]{32})" + _R),
    ("anyscale_key", "ai_provider", ('esecret_',), "Anyscale API key",
     _L + r"esecret_(?P<body>[a-z0-9]{20,})" + _R),
    ("buildkite_token", "buildkite", ('bkua_',), "Buildkite API token",
     _L + r"bkua_(?P<body>[0-9a-f]{40})" + _R),
    ("neon_key", "neon", ('napi_',), "Neon API key",
     _L + r"napi_(?P<body>[a-z0-9]{64})" + _R),
    ("hubspot_token", "hubspot", ('pat-na', 'pat-eu', 'pat-ap'), "HubSpot private app token",
     _L + r"pat-(?:na|eu|ap)\d-(?P<body>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})" + _R),
    ("onesignal_key", "onesignal", ('os_v2_',), "OneSignal API key",
     _L + r"os_v2_(?:app|org)_(?P<body>[a-z2-7]{56,})" + _R),
    ("woocommerce_key", "woocommerce", ('ck_', 'cs_'), "WooCommerce REST API key",
     _L + r"c[ks]_(?P<body>[0-9a-f]{40})" + _R),
    ("mailersend_token", "mailersend", ('mlsn.',), "MailerSend API token",
     _L + r"mlsn\.(?P<body>[0-9a-f]{64})" + _R),
)


def _body(match: re.Match[str]) -> str:
    try:
        return match.group("body") or match.group()
    except IndexError:
        return match.group()


def accept_token(match: re.Match[str]) -> bool:
    """The token's random part is not a placeholder and carries some entropy."""
    body = _body(match)
    return not is_placeholder(body, strict=False) and shannon(body) >= 2.5


# Rows matching a provider's whole layout to the character (`sk-ant-api03-` + 93 + `AA`).
_FULL_LAYOUTS = frozenset({"anthropic_key_layout"})


def accept_full_layout(match: re.Match[str]) -> bool:
    """A body that fills the provider's exact layout is a stand-in only if it is one without its
    keyboard runs too: a hand-typed test key (`…-abc123xyz-…-klmnopqrstuvwx-…AA`) is still a key
    to keep out of memory, where `…-0123456789abcdefghijklmnopqrstuvwxyz…` is filler."""
    body = _body(match)
    if shannon(body) < 2.5:
        return False
    if not is_placeholder(body, strict=False):
        return True
    rest = without_keyboard_runs(body)
    return len(rest) >= 24 and not is_placeholder(rest, strict=False)


# Rows whose prefix is short or a common word (`ctr_`, `test_`, `sandbox_`, `pk.`): the
# random part must also look generated, not be a name (`ctr_ComputeAverageValueForAllInputs`).
_NAME_LIKE_PREFIXES = frozenset({
    "adyen_api_key", "braintree_token", "chieftools_token", "lob_key", "mapbox_public_token",
    "newrelic_insert_key", "sendgrid_key_flat", "settlemint_token", "shippo_token",
})


def accept_generated_token(match: re.Match[str]) -> bool:
    """accept_token, and the random part is not a name or a word."""
    return accept_token(match) and looks_random(_body(match), relaxed=True)


# A leading negative look-behind: `(?<![A-Za-z0-9])` and the like.
_LEADING_LOOKBEHIND = lazy_compile(r"\(\?<!(?:\\.|\[(?:\\.|[^\]\\])*\]|[^()\\\[])*\)")


def finder(pattern: str) -> re.Pattern[str] | None:
    """The pattern without its leading look-behind: it matches wherever the pattern does, and
    the regex engine can skip ahead to its first literal or character set."""
    lookbehind = _LEADING_LOOKBEHIND.match(pattern)
    return lazy_compile(pattern[lookbehind.end():]) if lookbehind else None


def _article(what: str) -> str:
    """'an' before a vowel ("an AWS access key id", "an OpenAI API key"), else 'a'."""
    return "an" if what[:1].lower() in "aeiou" else "a"


def provider_rules() -> list[Rule]:
    return [
        Rule(id=f"secret.{name}", kind=SECRET, family=family,
             description=f"contains {_article(what)} {what}", pattern=lazy_compile(pattern),
             accept=(accept_generated_token if name in _NAME_LIKE_PREFIXES
                     else accept_full_layout if name in _FULL_LAYOUTS else accept_token),
             needles=needles, finder=finder(pattern))
        for name, family, needles, what, pattern in PROVIDER_TOKENS
    ]
