//! Property tests over what a server controls byte for byte: the JSON-RPC classifier and id
//! recovery, the bounded line reader, the SSE event reader, and the mirrored-header value
//! encoder. Each runs a fixed
//! number of generated cases, so it stays within a bounded time in CI; a panic fails it.

use base64::Engine as _;
use gatehouse_mcp::jsonrpc::{Message, RequestId, recover_id};
use gatehouse_mcp::transport::header_value::encode;
use gatehouse_mcp::transport::lines::{Line, LineReader};
use gatehouse_mcp::transport::sse::{MAX_RETRY, SseItem, SseReader, StreamEnd};
use proptest::prelude::*;
use serde_json::{Value, json};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        ..ProptestConfig::default()
    }
}

/// Any JSON value, a few levels deep, with the member names JSON-RPC cares about likely.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        let key = prop_oneof![
            Just("jsonrpc".to_owned()),
            Just("id".to_owned()),
            Just("method".to_owned()),
            Just("params".to_owned()),
            Just("result".to_owned()),
            Just("error".to_owned()),
            Just("code".to_owned()),
            Just("message".to_owned()),
            ".{0,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

fn request_id() -> impl Strategy<Value = RequestId> {
    prop_oneof![
        any::<i64>().prop_map(RequestId::Number),
        ".{0,10}".prop_map(RequestId::String),
    ]
}

/// Every item an SSE reader makes of `chunks` (a response body split there), and what the
/// stream left behind.
fn read_sse(chunks: Vec<Vec<u8>>, max_event_bytes: usize) -> (Vec<SseItem>, StreamEnd) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let mut end = StreamEnd::default();
    let items = runtime.block_on(async {
        let body =
            futures_util::stream::iter(chunks.into_iter().map(Ok::<_, std::convert::Infallible>));
        let mut reader = SseReader::from_stream(body, max_event_bytes, &mut end);
        let mut items = Vec::new();
        while let Some(item) = reader.next().await {
            items.push(item);
        }
        items
    });
    (items, end)
}

/// `bytes` cut into pieces at the given points.
fn split_at(bytes: &[u8], cuts: &[prop::sample::Index]) -> Vec<Vec<u8>> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
    points.sort_unstable();
    let mut chunks = Vec::new();
    let mut from = 0;
    for point in points {
        chunks.push(bytes[from..point].to_vec());
        from = point;
    }
    chunks.push(bytes[from..].to_vec());
    chunks
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_classifier_never_panics_and_names_only_a_response_id(value in json_value()) {
        match Message::from_value(value.clone()) {
            Ok(_) => {}
            Err(invalid) => {
                prop_assert_eq!(&invalid.message, &value, "the message comes back untouched");
                for id in &invalid.response_to {
                    let answers = |v: &Value| v.get("method").is_none() && v.get("id") == Some(&json!(id));
                    let named = match &value {
                        Value::Array(items) => items.iter().any(answers),
                        single => answers(single),
                    };
                    prop_assert!(named, "only a response's own id is named (a request is no response)");
                }
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_classifier_or_id_recovery(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        if let Ok(value) = serde_json::from_slice::<Value>(&bytes) {
            let _ = Message::from_value(value);
        }
        let _ = recover_id(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn the_id_of_a_response_cut_short_is_recovered(id in request_id(), result in json_value(), cut in any::<prop::sample::Index>()) {
        let text = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
        let id_text = json!(id).to_string();
        // Cut anywhere after the id and the character that ends it.
        let id_end = text.find(&format!("\"id\":{id_text}")).map(|at| at + 5 + id_text.len() + 1);
        prop_assume!(id_end.is_some_and(|end| end <= text.len()));
        let from = id_end.unwrap_or_default();
        let at = from + cut.index(text.len() - from + 1);
        prop_assume!(text.is_char_boundary(at));
        prop_assert_eq!(recover_id(&text[..at]), Some(id));
    }

    #[test]
    fn the_line_reader_never_panics_and_keeps_only_what_it_may(
        bytes in prop::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), any::<u8>()], 0..512),
        max_len in 0usize..64,
        keep in 0usize..80,
        chunk in 1usize..17,
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        let lines = runtime.block_on(async {
            let input = tokio::io::BufReader::with_capacity(chunk, &bytes[..]);
            let mut reader = LineReader::new(input, max_len).keeping_start(keep);
            let mut lines = Vec::new();
            while let Ok(Some(line)) = reader.next_line().await {
                lines.push(line);
            }
            lines
        });
        let mut expected: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
        if bytes.is_empty() || bytes.last() == Some(&b'\n') {
            expected.pop();
        }
        prop_assert_eq!(lines.len(), expected.len());
        for (line, raw) in lines.iter().zip(expected) {
            match line {
                Line::Data(data) => {
                    prop_assert!(raw.len() <= max_len);
                    prop_assert_eq!(&data[..], raw.strip_suffix(b"\r").unwrap_or(raw));
                }
                Line::TooLong { len, start } => {
                    prop_assert_eq!(*len, raw.len());
                    prop_assert!(*len > max_len);
                    prop_assert!(start.len() <= keep.min(max_len));
                    prop_assert!(raw.starts_with(start));
                }
            }
        }
    }

    #[test]
    fn an_encoded_header_value_is_valid_and_decodes_to_the_original(value in ".{0,40}") {
        let encoded = encode(&value);
        prop_assert!(reqwest::header::HeaderValue::from_str(&encoded).is_ok(), "{:?}", encoded);
        match encoded.strip_prefix("=?base64?").and_then(|rest| rest.strip_suffix("?=")) {
            Some(b64) if encoded != value => {
                let decoded = base64::engine::general_purpose::STANDARD.decode(b64).expect("base64");
                prop_assert_eq!(decoded, value.as_bytes());
            }
            _ => prop_assert_eq!(&encoded, &value),
        }
    }

    #[test]
    fn arbitrary_sse_bytes_never_panic_and_keep_within_the_limits(
        bytes in prop::collection::vec(prop_oneof![
            Just(b'\n'), Just(b'\r'), Just(b':'), Just(b' '),
            Just(b'd'), Just(b'a'), Just(b't'), Just(b'{'), Just(b'}'),
            any::<u8>(),
        ], 0..512),
        prefix in prop_oneof![Just(""), Just("data: "), Just("retry: "), Just("id: "), Just("event: ")],
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
        max_event_bytes in 0usize..64,
    ) {
        let mut body = prefix.as_bytes().to_vec();
        body.extend_from_slice(&bytes);
        let (items, end) = read_sse(split_at(&body, &cuts), max_event_bytes);
        // An event larger than the limit is dropped, whatever its kind.
        for item in &items {
            if let SseItem::Other { data, .. } = item {
                prop_assert!(data.len() <= max_event_bytes);
            }
        }
        prop_assert!(items.len() <= body.len() / 2 + 1, "at most one event per blank line");
        prop_assert!(end.retry.is_none_or(|retry| retry <= MAX_RETRY));
    }

    #[test]
    fn json_events_split_anywhere_arrive_whole_and_in_order(
        values in prop::collection::vec(json_value(), 1..6),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let mut body = Vec::new();
        for (i, value) in values.iter().enumerate() {
            body.extend_from_slice(format!("id: e{i}\ndata: {value}\n\n").as_bytes());
        }
        let (items, end) = read_sse(split_at(&body, &cuts), 1 << 20);
        let got: Vec<&Value> = items
            .iter()
            .filter_map(|item| match item {
                SseItem::Message(value) => Some(value),
                SseItem::Other { .. } => None,
            })
            .collect();
        prop_assert_eq!(got, values.iter().collect::<Vec<_>>());
        let last_id = format!("e{}", values.len() - 1);
        prop_assert_eq!(end.last_event_id.as_deref(), Some(last_id.as_str()));
        prop_assert!(end.error.is_none());
    }
}
