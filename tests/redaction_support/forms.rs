//! The corpus' own secret forms and its seeded generator.

/// A small deterministic generator (xorshift64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn pick(&mut self, alphabet: &str, n: usize) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        (0..n)
            .map(|_| chars[usize::try_from(self.next() % chars.len() as u64).unwrap()])
            .collect()
    }

    pub fn alnum(&mut self, n: usize) -> String {
        self.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", n)
    }

    pub fn hex(&mut self, n: usize) -> String {
        self.pick("0123456789abcdef", n)
    }

    pub fn b64(&mut self, n: usize) -> String {
        self.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", n)
    }

    pub fn password(&mut self) -> String {
        format!(
            "{}{}!{}",
            self.pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 1),
            self.alnum(9),
            self.pick("0123456789", 2)
        )
    }

    pub fn uuid(&mut self) -> String {
        format!(
            "{}-{}-4{}-a{}-{}",
            self.hex(8),
            self.hex(4),
            self.hex(3),
            self.hex(3),
            self.hex(12)
        )
    }
}

/// One planted secret: the text that holds it and the secret itself.
pub struct Plant {
    /// The text that holds the secret.
    pub text: String,
    /// The secret.
    pub secret: String,
}

/// The forms written here; the gitleaks rule samples of `redaction_support` follow them.
pub const OWN_FORMS: usize = 46;

/// How many forms [`plant`] writes: each family as a tool or a person writes it.
pub const FAMILIES: usize = OWN_FORMS + super::gitleaks::GITLEAKS_FORMS;

pub fn plant(rng: &mut Rng, family: usize) -> Plant {
    let (text, secret) = match family % FAMILIES {
        0 => {
            let s = format!("sk-ant-api03-{}", rng.alnum(48));
            (format!("export ANTHROPIC_API_KEY={s}"), s)
        }
        1 => {
            let s = format!("sk-proj-{}", rng.alnum(40));
            (format!("client = OpenAI(api_key=\"{s}\")"), s)
        }
        2 => {
            let s = format!("AKIA{}", rng.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16));
            (format!("aws configure set aws_access_key_id {s}"), s)
        }
        3 => {
            let s = rng.b64(40);
            (format!("aws_secret_access_key = {s}"), s)
        }
        4 => {
            let s = format!("ghp_{}", rng.alnum(36));
            (
                format!("git remote set-url origin https://{s}@github.com/acme/app.git"),
                s,
            )
        }
        5 => {
            let s = format!("glpat-{}", rng.alnum(20));
            (format!("GITLAB_TOKEN: {s}"), s)
        }
        6 => {
            let s = format!(
                "xoxb-{}-{}-{}",
                rng.pick("0123456789", 12),
                rng.pick("0123456789", 13),
                rng.alnum(24)
            );
            (format!("slack token {s} posted"), s)
        }
        7 => {
            let s = format!(
                "xapp-1-A{}-{}-{}",
                rng.pick("0123456789", 10),
                rng.pick("0123456789", 13),
                rng.hex(64)
            );
            (format!("SLACK_APP_TOKEN={s}"), s)
        }
        8 => {
            let s = format!("sk_live_{}", rng.alnum(24));
            (format!("stripe.api_key = '{s}'"), s)
        }
        9 => {
            let s = format!(
                "AIza{}",
                rng.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", 35)
            );
            (format!("https://maps.googleapis.com/maps/api/geocode/json?key={s}"), s)
        }
        10 => {
            let s = format!("hf_{}", rng.alnum(34));
            (format!("huggingface-cli login --token {s}"), s)
        }
        11 => {
            let (a, b, c) = (rng.alnum(20), rng.alnum(40), rng.alnum(43));
            let s = format!("eyJhbGciOiJIUzI1NiJ9.eyJ{a}{b}.{c}");
            (format!("Cookie: session={s}"), s)
        }
        12 => {
            let s = rng.alnum(40);
            (
                format!("curl -H 'Authorization: Bearer {s}' https://api.example.com"),
                s,
            )
        }
        13 => {
            let s = rng.password();
            (format!("psql postgres://app:{s}@db.internal:5432/orders"), s)
        }
        14 => {
            let s = rng.password();
            (format!("REDIS_URL=redis://:{s}@cache:6379/0"), s)
        }
        15 => {
            let body: Vec<String> = (0..4).map(|_| rng.b64(64)).collect();
            let s = body[1].clone();
            (
                format!(
                    "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
                    body.join("\n")
                ),
                s,
            )
        }
        16 => {
            let s = rng.password();
            (format!("DB_PASSWORD={s}"), s)
        }
        17 => {
            let s = rng.password();
            (format!("mysql -h db -u root -p{s} orders"), s)
        }
        18 => {
            let s = rng.password();
            (format!("curl -u deploy:{s} https://ci.example/api"), s)
        }
        19 => {
            let s = rng.password();
            (format!("sshpass -p '{s}' ssh admin@10.0.0.5"), s)
        }
        20 => {
            let s = rng.password();
            (format!("machine github.com login octo password {s}"), s)
        }
        21 => {
            let s = rng.uuid();
            (format!("heroku config:set HEROKU_API_KEY={s}"), s)
        }
        22 => {
            let s = rng.uuid();
            (format!("curl -H \"X-Api-Key: {s}\" https://api.example.com"), s)
        }
        23 => {
            let s = rng.hex(32);
            (format!("api key: {s}"), s)
        }
        24 => {
            let s = format!("{}%2B{}%3D", rng.alnum(20), rng.alnum(12));
            (
                format!("https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig={s}"),
                s,
            )
        }
        // Issue 45 finding 11: the forms the fourth hostile pass found surviving.
        26 => {
            let s = rng.alnum(32);
            (format!("Cookie: csrftoken=abc; sessionid={s}"), s)
        }
        27 => {
            let s = rng.alnum(26);
            (format!("Set-Cookie: PHPSESSID={s}; path=/"), s)
        }
        28 => {
            let s = rng.alnum(20);
            (format!("GET https://dash.example/app?sid={s}&tab=2"), s)
        }
        29 => {
            let s = rng.alnum(24);
            (format!("open https://x.example/cb?session_id={s}"), s)
        }
        30 => {
            let s = rng.alnum(18);
            (format!("https://feeds.example/rss?auth={s}"), s)
        }
        31 => {
            let s = rng.b64(32);
            (format!("Authorization: ApiKey {s}"), s)
        }
        32 => {
            let s = rng.b64(28);
            (format!("proxy header X-Upstream \"Basic {s}\""), s)
        }
        33 => {
            let s = rng.pick("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 22);
            (format!("deploy:$apr1$Xy7Qw3Ez${s}"), s)
        }
        34 => {
            let s = rng.password();
            (format!("db.internal:5432:orders:app:{s}"), s)
        }
        35 => {
            let s = format!("{}==", rng.b64(22));
            (format!("kind: Secret\ndata:\n  password: {s}\n"), s)
        }
        36 => {
            let s = format!("{}-us{}", rng.hex(32), 1 + rng.next() % 20);
            (format!("MAILCHIMP_KEY {s}"), s)
        }
        37 => {
            let s = rng.alnum(7);
            (
                format!(
                    "POST https://hooks.zapier.com/hooks/catch/{}/{s}/",
                    1_000_000 + rng.next() % 8_999_999
                ),
                s,
            )
        }
        38 => {
            let s = format!("LTAI{}", rng.alnum(20));
            (format!("aliyun configure --access-key-id {s}"), s)
        }
        39 => {
            let s = format!("{}8Q~{}", rng.alnum(3), rng.alnum(34));
            (format!("AZURE_CLIENT_SECRET: {s}"), s)
        }
        40 => {
            let s = rng.password();
            (format!("Driver={{ODBC Driver 18}};Server=db;Uid=sa;Pwd={{{s}}};"), s)
        }
        41 => {
            let s = rng.uuid();
            (format!("my api token is {s}, keep it"), s)
        }
        42 => {
            let s = rng.alnum(16);
            (format!("{{\"headers\": \"{{\\\"cookie\\\": \\\"{s}\\\"}}\"}}"), s)
        }
        43 => {
            let s = rng.pick("0123456789", 6);
            (format!("{{\"pin\": \"{s}\", \"user\": \"ops\"}}"), s)
        }
        44 => {
            let s = rng.password();
            (format!("mariadb -uroot -p{s} app"), s)
        }
        45 => {
            let s = rng.pick("0123456789", 12);
            (format!("{{\"api_token\": {s}}}"), s)
        }
        n if n >= OWN_FORMS => super::gitleaks::gitleaks_form(n - OWN_FORMS, &mut |a, k| rng.pick(a, k)),
        _ => {
            let s = rng.password();
            (format!("{{\"DB_PASS\": \"{s}\"}}"), s)
        }
    };
    Plant { text, secret }
}

/// How many forms [`split_plant`] writes.
pub const SPLIT_FORMS: usize = 4;

/// A secret split over two text blocks: the two texts, and the secret with each part no rule
/// would find alone.
pub fn split_plant(rng: &mut Rng, form: usize) -> (String, String, Vec<Plant>) {
    let plant = |text: &str, secret: &str| Plant {
        text: text.to_owned(),
        secret: secret.to_owned(),
    };
    match form {
        0 => {
            let s = format!("ghp_{}", rng.alnum(36));
            let (a, b) = (
                format!("export GITHUB_TOKEN={}", &s[..14]),
                format!("{} and run make", &s[14..]),
            );
            let plants = vec![plant(&a, &s[4..14]), plant(&b, &s[14..]), plant(&a, &s)];
            (a, b, plants)
        }
        1 => {
            let pw = rng.password();
            let (a, b) = ("DB_PASSWORD=".to_owned(), format!("{pw} # prod"));
            let plants = vec![plant(&b, &pw)];
            (a, b, plants)
        }
        2 => {
            let s = format!("sk-ant-api03-{}", rng.alnum(48));
            let (a, b) = (format!("key: {}", &s[..30]), format!("{} (new)", &s[30..]));
            let plants = vec![plant(&b, &s[30..]), plant(&a, &s)];
            (a, b, plants)
        }
        _ => {
            let key = rng.b64(40);
            let (a, b) = (format!("aws_secret_access_key = {}", &key[..20]), key[20..].to_owned());
            let plants = vec![plant(&a, &key[..20]), plant(&b, &key[20..])];
            (a, b, plants)
        }
    }
}
