fn main() {
    lalrpop::process_src().expect("the Rex grammar must compile");
}
