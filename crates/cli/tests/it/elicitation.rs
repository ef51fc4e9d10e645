//! `gatehouse call` on a terminal answers a server's form elicitation interactively (here
//! server-everything's `trigger-elicitation-request`, under a pseudo-terminal from `script`);
//! without a terminal nobody can answer, so elicitation is not even declared.

use crate::support::{data_with_everything, gatehouse, on_terminal, stdout};

#[test]
fn a_form_elicitation_is_answered_at_the_terminal() {
    let dir = data_with_everything("everything");
    // name, check, then Enter for every other field (defaults or skipped), then confirm.
    let mut answers = String::from("Ada Lovelace\nbogus\ny\n");
    answers.push_str(&"\n".repeat(11));
    answers.push('\n');
    let (screen, succeeded) = on_terminal(
        dir.path(),
        "call everything trigger-elicitation-request",
        &answers,
    );
    assert!(succeeded, "the call succeeds: {screen}");
    assert!(
        screen.contains("asks:"),
        "the person is shown the server's question: {screen}"
    );
    assert!(
        screen.contains("answer yes or no"),
        "an invalid answer is explained and asked again: {screen}"
    );
    assert!(
        screen.contains("User provided the requested information"),
        "the answers reach the server: {screen}"
    );
    assert!(
        screen.contains("Ada Lovelace"),
        "the server received the typed name: {screen}"
    );
    assert!(
        screen.contains("It was a dark and stormy night."),
        "Enter keeps a default: {screen}"
    );
}

#[test]
fn without_a_terminal_elicitation_is_not_declared_so_the_server_does_not_offer_it() {
    let dir = data_with_everything("everything");
    let output = gatehouse(dir.path(), &["tools", "everything", "--json"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("get-roots-list"),
        "roots are still declared and used: {text}"
    );
    assert!(
        !text.contains("trigger-elicitation-request") && !text.contains("trigger-sampling-request"),
        "nobody can answer here, so the host declares neither elicitation nor sampling: {text}"
    );
}
