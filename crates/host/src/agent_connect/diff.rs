//! A unified line diff (`--- a`, `+++ b`, `@@ -l,n +l,n @@` hunks with three lines of context),
//! for the preview of what `gatehouse connect` changes. The common head and tail are set aside
//! first, so the longest-common-subsequence table only covers the changed middle (a few lines
//! of an agent's config); a middle too large for it is shown as removed then added.

/// Lines of context around each change.
const CONTEXT: usize = 3;
/// The largest middle (old lines × new lines) compared line by line.
const MAX_CELLS: usize = 4_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Removed,
    Added,
}

/// The unified diff of `old` → `new`, labelled `label` on both sides; empty when they are equal.
pub fn unified(label: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = line_ops(&a, &b);
    let mut out = format!("--- {label}\n+++ {label}\n");
    // Each op with its line in a (removed/same) and b (added/same).
    let mut positions = Vec::with_capacity(ops.len());
    let (mut i, mut j) = (0, 0);
    for op in &ops {
        positions.push((i, j));
        match op {
            Op::Same => (i, j) = (i + 1, j + 1),
            Op::Removed => i += 1,
            Op::Added => j += 1,
        }
    }
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k] != Op::Same).collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT {
            end = changed[k];
            k += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let (a_start, b_start) = positions[start];
        let a_len = ops[start..end].iter().filter(|o| **o != Op::Added).count();
        let b_len = ops[start..end]
            .iter()
            .filter(|o| **o != Op::Removed)
            .count();
        out.push_str(&format!(
            "@@ -{},{a_len} +{},{b_len} @@\n",
            a_start + usize::from(a_len > 0),
            b_start + usize::from(b_len > 0)
        ));
        for (op, &(ia, jb)) in ops[start..end].iter().zip(&positions[start..end]) {
            let (mark, line) = match op {
                Op::Same => (' ', a[ia]),
                Op::Removed => ('-', a[ia]),
                Op::Added => ('+', b[jb]),
            };
            out.push(mark);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

fn line_ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops = vec![Op::Same; head];
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        ops.extend(std::iter::repeat_n(Op::Removed, ma.len()));
        ops.extend(std::iter::repeat_n(Op::Added, mb.len()));
    } else {
        // lcs[i][j]: the longest common subsequence of ma[i..] and mb[j..].
        let width = mb.len() + 1;
        let mut lcs = vec![0u32; (ma.len() + 1) * width];
        for i in (0..ma.len()).rev() {
            for j in (0..mb.len()).rev() {
                lcs[i * width + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * width + j + 1] + 1
                } else {
                    lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < ma.len() || j < mb.len() {
            if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
                ops.push(Op::Same);
                (i, j) = (i + 1, j + 1);
            } else if i < ma.len()
                && (j == mb.len() || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])
            {
                // Removed lines before added ones, as `diff -u` shows them.
                ops.push(Op::Removed);
                i += 1;
            } else {
                ops.push(Op::Added);
                j += 1;
            }
        }
    }
    ops.extend(std::iter::repeat_n(Op::Same, tail));
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n";
        assert_eq!(
            unified("f", old, new),
            "--- f\n+++ f\n@@ -2,9 +2,10 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n 10\n+11\n"
        );
        assert_eq!(unified("f", old, old), "");
        let far = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
        let far_new = "A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\n";
        let diff = unified("f", far, far_new);
        assert_eq!(diff.matches("@@ -").count(), 2, "{diff}");
        assert!(diff.contains("@@ -1,4 +1,4 @@\n-a\n+A\n"), "{diff}");
        assert!(
            diff.contains("@@ -9,4 +9,4 @@\n i\n j\n k\n-l\n+L\n"),
            "{diff}"
        );
    }

    #[test]
    fn no_newline_at_the_end_and_empty_sides() {
        assert_eq!(
            unified("f", "", "x"),
            "--- f\n+++ f\n@@ -0,0 +1,1 @@\n+x\n\\ No newline at end of file\n"
        );
        assert_eq!(
            unified("f", "x\n", ""),
            "--- f\n+++ f\n@@ -1,1 +0,0 @@\n-x\n"
        );
    }
}
