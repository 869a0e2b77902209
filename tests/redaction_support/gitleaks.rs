//! Secret forms in the shapes of gitleaks' rules (`src/export/redact/gitleaks.toml`), each as a
//! person or a tool writes it, for the redaction corpus. Each form names the gitleaks rule whose
//! shape it follows; the secret is random (drawn by the corpus' seeded generator).

/// Lower-case letters and digits.
const LA: &str = "abcdefghijklmnopqrstuvwxyz0123456789";
/// Letters and digits.
const AN: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/// Upper-case letters and digits.
const UP: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// Hex digits.
const HEX: &str = "0123456789abcdef";
/// Digits.
const DIG: &str = "0123456789";

/// The gitleaks rule each form follows, in form order.
pub const GITLEAKS_RULES: &[&str] = &[
    "age-secret-key",
    "1password-secret-key",
    "adobe-client-secret",
    "artifactory-api-key",
    "clickhouse-cloud-api-secret-key",
    "clojars-api-token",
    "duffel-api-token",
    "dynatrace-api-token",
    "easypost-api-token",
    "flutterwave-secret-key",
    "frameio-api-token",
    "gitlab-rrt",
    "gitlab-cicd-job-token",
    "gitlab-feature-flag-client-token",
    "gitlab-incoming-mail-token",
    "gitlab-kubernetes-agent-token",
    "gitlab-oauth-app-secret",
    "gitlab-session-cookie",
    "grafana-cloud-api-token",
    "grafana-service-account-token",
    "harness-api-key",
    "hashicorp-tf-api-token",
    "heroku-api-key-v2",
    "huggingface-organization-api-token",
    "infracost-api-token",
    "intra42-client-secret",
    "linear-api-key",
    "maxmind-license-key",
    "notion-api-token",
    "octopus-deploy-api-key",
    "openshift-user-token",
    "perplexity-api-key",
    "planetscale-api-token",
    "prefect-api-token",
    "readme-api-token",
    "rubygems-api-token",
    "scalingo-api-token",
    "sendinblue-api-token",
    "sentry-user-token",
    "settlemint-personal-access-token",
    "shippo-api-token",
    "square-access-token",
    "vault-service-token",
    "mapbox-api-token",
    "new-relic-user-api-key",
    "okta-access-token",
    "telegram-bot-api-token",
    "asana-client-id",
    "airtable-api-key",
    "confluent-access-token",
    "dropbox-api-token",
    "linkedin-client-id",
    "travisci-access-token",
    "etsy-access-token",
    "plaid-client-id",
    "kucoin-access-token",
    "mattermost-access-token",
    "sumologic-access-id",
    "twitter-api-key",
    "yandex-api-key",
    "kraken-access-token",
    "sidekiq-sensitive-url",
    "jwt-base64",
    "microsoft-teams-webhook",
];

/// How many forms [`gitleaks_form`] writes.
pub const GITLEAKS_FORMS: usize = GITLEAKS_RULES.len();

/// Form `i` (below [`GITLEAKS_FORMS`]): the text holding the secret, and the secret. `pick`
/// draws `n` characters of an alphabet.
pub fn gitleaks_form(i: usize, pick: &mut dyn FnMut(&str, usize) -> String) -> (String, String) {
    let (template, secret) = match i {
        0 => (
            "age-keygen wrote {}",
            format!("AGE-SECRET-KEY-1{}", pick("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
        ),
        1 => (
            "1Password secret key {} (emergency kit)",
            format!(
                "A3-{}-{}-{}-{}-{}",
                pick(UP, 6),
                pick(UP, 11),
                pick(UP, 5),
                pick(UP, 5),
                pick(UP, 5)
            ),
        ),
        2 => ("adobe client: {}", format!("p8e-{}", pick(AN, 32))),
        3 => ("artifactory {}", format!("AKCp{}", pick(AN, 69))),
        4 => ("clickhouse cloud {}", format!("4b1d{}", pick(AN, 38))),
        5 => ("lein deploy clojars {}", format!("CLOJARS_{}", pick(LA, 60))),
        6 => ("{} was the duffel one", format!("duffel_live_{}", pick(AN, 43))),
        7 => ("dynatrace {}", format!("dt0c01.{}.{}", pick(UP, 24), pick(UP, 64))),
        8 => ("shipping via {}", format!("EZAK{}", pick(AN, 54))),
        9 => (
            "flutterwave {}",
            format!("FLWSECK_TEST-{}-X", pick("abcdefgh0123456789", 32)),
        ),
        10 => ("frame.io {}", format!("fio-u-{}", pick(AN, 64))),
        11 => ("gitlab-runner register {}", format!("GR1348941{}", pick(AN, 20))),
        12 => ("job {}", format!("glcbt-{}_{}", pick(AN, 3), pick(AN, 20))),
        13 => ("unleash client {}", format!("glffct-{}", pick(AN, 20))),
        14 => ("incoming mail {}", format!("glimt-{}", pick(AN, 25))),
        15 => ("agent {}", format!("glagent-{}", pick(AN, 50))),
        16 => ("oidc app {}", format!("gloas-{}", pick(AN, 64))),
        17 => ("Cookie: _gitlab_session={}", pick(LA, 32)),
        18 => ("grafana cloud {}", format!("glc_{}", pick(AN, 40))),
        19 => ("grafana sa {}", format!("glsa_{}_{}", pick(AN, 32), pick(HEX, 8))),
        20 => (
            "harness {}",
            format!("pat.{}.{}.{}", pick(AN, 22), pick(AN, 24), pick(AN, 20)),
        ),
        21 => (
            "terraform login {}",
            format!("{}.atlasv1.{}", pick(LA, 14), pick(LA, 65)),
        ),
        22 => ("heroku {}", format!("HRKU-AA{}", pick(AN, 58))),
        23 => (
            "hf org {}",
            format!(
                "api_org_{}",
                pick("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 34)
            ),
        ),
        24 => ("infracost {}", format!("ico-{}", pick(AN, 32))),
        25 => ("42 intra {}", format!("s-s4t2ud-{}", pick(HEX, 64))),
        26 => ("linear {}", format!("lin_api_{}", pick(AN, 40))),
        27 => ("geoip {}", format!("{}_{}_mmk", pick(AN, 6), pick(AN, 29))),
        28 => ("notion {}", format!("ntn_{}{}", pick(DIG, 11), pick(AN, 35))),
        29 => ("octopus {}", format!("API-{}", pick(UP, 26))),
        30 => ("oc login {}", format!("sha256~{}", pick(AN, 43))),
        31 => ("perplexity {}", format!("pplx-{}", pick(AN, 48))),
        32 => ("pscale {}", format!("pscale_tkn_{}", pick(AN, 40))),
        33 => ("prefect cloud login -k {}", format!("pnu_{}", pick(AN, 36))),
        34 => ("readme {}", format!("rdme_{}", pick(LA, 70))),
        35 => ("gem push with {}", format!("rubygems_{}", pick(HEX, 48))),
        36 => ("scalingo {}", format!("tk-us-{}", pick(AN, 48))),
        37 => ("brevo {}", format!("xkeysib-{}-{}", pick(HEX, 64), pick(AN, 16))),
        38 => ("sentry-cli {}", format!("sntryu_{}", pick(HEX, 64))),
        39 => ("settlemint {}", format!("sm_pat_{}", pick(AN, 16))),
        40 => ("shippo {}", format!("shippo_test_{}", pick(HEX, 40))),
        41 => ("square {}", format!("sq0atp-{}", pick(AN, 30))),
        42 => ("vault login {}", format!("hvs.{}", pick(AN, 100))),
        43 => ("mapbox access: {}", format!("pk.{}.{}", pick(LA, 60), pick(LA, 22))),
        44 => ("newrelic api: {}", format!("NRAK-{}", pick(UP, 27))),
        45 => ("okta: {}", format!("00{}", pick(AN, 40))),
        46 => ("telegram bot = {}", format!("{}:A{}", pick(DIG, 9), pick(AN, 34))),
        47 => ("asana: {}", pick(DIG, 16)),
        48 => ("airtable = {}", pick(LA, 17)),
        49 => ("confluent cluster: {}", pick(LA, 16)),
        50 => ("dropbox: '{}'", pick(LA, 15)),
        51 => ("linkedin client = {}", pick(LA, 14)),
        52 => ("travis: {}", pick(LA, 22)),
        53 => ("Etsy shop: {}", pick(LA, 24)),
        54 => ("plaid client: {}", pick(LA, 24)),
        55 => ("kucoin: {}", pick(HEX, 24)),
        56 => ("mattermost bot: {}", pick(LA, 26)),
        57 => ("SUMO_ID: {}", format!("su{}", pick(AN, 12))),
        58 => ("twitter consumer: {}", pick(LA, 25)),
        59 => ("yandex: {}", format!("AQVN{}", pick(AN, 36))),
        60 => ("kraken: {}", pick("abcdefghijklmnopqrstuvwxyz0123456789/=_+-", 85)),
        61 => (
            "bundle config https://{}@gems.contribsys.com/",
            format!("{}:{}", pick(HEX, 8), pick(HEX, 8)),
        ),
        62 => ("header {}", format!("ZXlKaGJHY2lPaU{}", pick(AN, 50))),
        _ => {
            let (a, b, c) = (uuid(pick), uuid(pick), uuid(pick));
            (
                "POST {}",
                format!(
                    "https://acme.webhook.office.com/webhookb2/{a}@{b}/IncomingWebhook/{}/{c}",
                    pick(LA, 32)
                ),
            )
        }
    };
    (template.replace("{}", &secret), secret)
}

/// A lower-case UUID.
fn uuid(pick: &mut dyn FnMut(&str, usize) -> String) -> String {
    format!(
        "{}-{}-{}-{}-{}",
        pick(HEX, 8),
        pick(HEX, 4),
        pick(HEX, 4),
        pick(HEX, 4),
        pick(HEX, 12)
    )
}
